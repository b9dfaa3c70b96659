#include "redis/scripts/server_version.hpp"

#include <catch2/catch.hpp>

using dlock::redis::version_in_info;

TEST_CASE("the server's version is read from INFO server, and nothing else passes for it",
          "[unit][redis][version]") {
    CHECK(version_in_info("# Server\r\nredis_version:4.0.14\r\nredis_mode:standalone\r\n") ==
          "4.0.14");
    CHECK(version_in_info("redis_version:7.0.15") == "7.0.15");
    CHECK_FALSE(version_in_info("# Server\r\nredis_mode:standalone\r\n"));
    CHECK_FALSE(version_in_info("# Server\r\nredis_version:\r\n"));
    CHECK_FALSE(version_in_info("# Server\r\nredis_version:abc\r\n"));
    // Only the field itself, at the start of a line: not another field ending in the same name.
    CHECK_FALSE(version_in_info("# Server\r\nnot_redis_version:4.0\r\n"));
    CHECK_FALSE(version_in_info("redis_version:" + std::string(100, '9')));
    CHECK(version_in_info("redis_version:5." + std::string(100, '9')).value().size() == 32);
}
