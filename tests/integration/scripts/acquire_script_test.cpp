#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

TEST_CASE("acquire on a free name takes the lease with one hold and a token", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    const int64_t before = server_time_ms(*server);

    auto out = try_acquire(*backend, request("owner-a", "hold-1", 30s));
    CHECK(out.acquired);
    CHECK(out.holds == 1);
    CHECK(out.fence > 0);

    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK(hget(*server, keys.lock, "holds") == "1");
    CHECK(hget(*server, keys.lock, "fence") == std::to_string(out.fence));
    CHECK(hget(*server, keys.lock, "host") == "alice-host");
    CHECK(hget(*server, keys.lock, "pid") == "4242");
    CHECK(hget(*server, keys.lock, "user") == "alice");
    CHECK(hget(*server, keys.lock, "cmd") == "./alice.sh --full");
    const int64_t since = std::stoll(hget(*server, keys.lock, "since"));
    CHECK(since >= before);
    CHECK(since <= server_time_ms(*server));
    CHECK(pttl(*server, keys.lock) > 29'000);
    CHECK(pttl(*server, keys.lock) <= 30'000);
}

TEST_CASE("a second owner is refused with the holder's identity and lease", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto first = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 4242));
    REQUIRE(first.acquired);

    auto other = open_backend(*server);
    auto refused = try_acquire(*other, request("owner-b", "hold-2", 30s, "", 3s, "bob", 7));
    CHECK_FALSE(refused.acquired);
    REQUIRE(refused.holder);
    CHECK(refused.holder->host == "alice-host");
    CHECK(refused.holder->pid == 4242);
    CHECK(refused.holder->user == "alice");
    CHECK(refused.holder->command == "./alice.sh --full");
    CHECK(refused.holder->fence == first.fence);
    CHECK(refused.holder->since_ms > 0);
    CHECK(std::abs(refused.holder->since_ms - server_time_ms(*server)) < 10'000);
    CHECK(refused.lease_left > 0ms);
    CHECK(refused.lease_left <= 30s);
    CHECK(refused.waiters == 0);

    const auto keys = job_keys();
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK(hget(*server, keys.lock, "holds") == "1");
}

TEST_CASE("a refusal without a waiter id does not queue", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    CHECK_FALSE(try_acquire(*backend, request("owner-b", "hold-2")).acquired);
    const auto keys = job_keys();
    CHECK_FALSE(exists(*server, keys.queue));
    CHECK_FALSE(exists(*server, keys.alive));
}

TEST_CASE("re-entry by the same owner with a new hold id adds a hold, same token",
          "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto outer = try_acquire(*backend, request("owner-a", "hold-1"));
    REQUIRE(outer.acquired);

    auto inner = try_acquire(*backend, request("owner-a", "hold-2"));
    CHECK(inner.acquired);
    CHECK(inner.holds == 2);
    CHECK(inner.fence == outer.fence);
    CHECK(hget(*server, job_keys().lock, "holds") == "2");

    auto third = try_acquire(*backend, request("owner-a", "hold-3"));
    CHECK(third.holds == 3);
    CHECK(third.fence == outer.fence);
}

TEST_CASE("a retried acquire with the same hold id is a replay, not a second hold",
          "[acquire.lua]") {
    // Redisson #7367: a retried lock request counted twice, so one unlock left it held.
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto first = try_acquire(*backend, request("owner-a", "hold-1"));
    REQUIRE(first.acquired);

    auto replay = try_acquire(*backend, request("owner-a", "hold-1"));
    CHECK(replay.acquired);
    CHECK(replay.holds == 1);
    CHECK(replay.fence == first.fence);
    CHECK(hget(*server, job_keys().lock, "holds") == "1");

    CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    CHECK_FALSE(exists(*server, job_keys().lock));
}

TEST_CASE("re-entry with a longer TTL extends the lease, a shorter one never shortens it",
          "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 10s)).acquired);
    CHECK(pttl(*server, keys.lock) <= 10'000);

    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2", 60s)).acquired);
    CHECK(pttl(*server, keys.lock) > 59'000);

    REQUIRE(try_acquire(*backend, request("owner-a", "hold-3", 1s)).acquired);
    CHECK(pttl(*server, keys.lock) > 59'000);
}

TEST_CASE("a lease that expired can be taken by another owner", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto first = try_acquire(*backend, request("owner-a", "hold-1", 100ms));
    REQUIRE(first.acquired);
    std::this_thread::sleep_for(250ms);
    auto second = try_acquire(*backend, request("owner-b", "hold-2"));
    CHECK(second.acquired);
    CHECK(second.holds == 1);
    CHECK(second.fence > first.fence);
    CHECK(hget(*server, job_keys().lock, "owner") == "owner-b");
}

TEST_CASE("different names are independent locks", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    CHECK(try_acquire(*backend, request("owner-a", "hold-1"), job_keys("one")).acquired);
    CHECK(try_acquire(*backend, request("owner-b", "hold-2"), job_keys("two")).acquired);
    CHECK_FALSE(try_acquire(*backend, request("owner-b", "hold-3"), job_keys("one")).acquired);
}
