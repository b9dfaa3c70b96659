#include "support/redis_server.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the fixture starts a private redis-server", "[fixture]") {
    REQUIRE_REDIS(server);
    CHECK(server->cmd({"PING"}).str() == "PONG");
    CHECK(server->port() > 0);
}
