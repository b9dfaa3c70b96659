#include "util/error.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("fail carries exit code, message and transient flag", "[error]") {
    Result<int> r = fail(exit_code::unavailable, "down", true);
    REQUIRE_FALSE(r);
    CHECK(r.error().exit_code == 69);
    CHECK(r.error().message == "down");
    CHECK(r.error().transient);

    Result<int> permanent = fail(exit_code::internal, "bug");
    CHECK_FALSE(permanent.error().transient);
}

TEST_CASE("usage errors exit with 64 and are not transient", "[error]") {
    Result<void> r = usage_error("bad option");
    REQUIRE_FALSE(r);
    CHECK(r.error().exit_code == 64);
    CHECK_FALSE(r.error().transient);
}

TEST_CASE("exit codes follow sysexits and the shell convention", "[error]") {
    CHECK(exit_code::usage == 64);
    CHECK(exit_code::unavailable == 69);
    CHECK(exit_code::internal == 70);
    CHECK(exit_code::busy == 75);
    CHECK(exit_code::lease_lost == 76);
    CHECK(exit_code::not_executable == 126);
    CHECK(exit_code::not_found == 127);
    CHECK(exit_code::signal_base == 128);
}
