#include "support/dlock_process.hpp"
#include "support/redis_server.hpp"

#include <catch2/catch.hpp>

using namespace dlock::test;

TEST_CASE("dlock run passes the command's exit code through", "[run]") {
    REQUIRE_REDIS(server);
    auto r = run_dlock({"--redis", server->url(), "run", "job", "--", "sh", "-c", "exit 3"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.empty());
}
