#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

TEST_CASE("renew extends the lease of its owner", "[renew.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 1s)).acquired);
    CHECK(pttl(*server, keys.lock) <= 1000);

    CHECK(ok(backend->renew({keys, "owner-a", "", 30s})));
    CHECK(pttl(*server, keys.lock) > 29'000);
}

TEST_CASE("renew by another owner fails and leaves the lease alone", "[renew.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 2s)).acquired);

    CHECK_FALSE(ok(backend->renew({keys, "owner-b", "", 30s})));
    CHECK(pttl(*server, keys.lock) <= 2000);
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
}

TEST_CASE("renew never shortens the lease", "[renew.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 30s)).acquired);
    server->cmd({"PEXPIRE", keys.lock, "600000"});

    CHECK(ok(backend->renew({keys, "owner-a", "", 1s})));
    CHECK(pttl(*server, keys.lock) > 590'000);
}

TEST_CASE("renew of a missing lease fails and creates nothing", "[renew.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    CHECK_FALSE(ok(backend->renew({keys, "owner-a", "", 30s})));
    CHECK_FALSE(exists(*server, keys.lock));
}

TEST_CASE("renew after the lease was taken over fails", "[renew.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 100ms)).acquired);
    std::this_thread::sleep_for(250ms);
    REQUIRE(try_acquire(*backend, request("owner-b", "hold-2", 30s)).acquired);
    CHECK_FALSE(ok(backend->renew({keys, "owner-a", "", 30s})));
    CHECK(hget(*server, keys.lock, "owner") == "owner-b");
}
