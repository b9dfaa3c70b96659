// --min-hold in lua/release.lua: a lease released sooner than MIN_HOLD after its acquisition is
// kept, owner-less, and expires by itself (server-side) at acquisition + MIN_HOLD.

#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys keys = job_keys();

lock::ReleaseRequest release_with_min_hold(std::string_view owner, std::string_view hold,
                                           Millis min_hold) {
    return lock::ReleaseRequest{owner, hold, 3s, false, 0, min_hold};
}

} // namespace

TEST_CASE("a release within --min-hold keeps the key and lets it expire server-side",
          "[min-hold]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    const int64_t since = std::stoll(hget(*server, keys.lock, "since"));
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);

    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-1", 1500ms))) == 0);
    REQUIRE(exists(*server, keys.lock));
    CHECK(hget(*server, keys.lock, "owner").empty());
    CHECK(hget(*server, keys.lock, "until") == std::to_string(since + 1500));
    const int64_t left = pttl(*server, keys.lock);
    CHECK(left > 0);
    CHECK(left <= 1500);
    CHECK_FALSE(exists(*server, keys.wake + "wa")); // waiters are not woken early

    // Nobody can renew or re-enter it; a newcomer is refused and told until when.
    CHECK_FALSE(ok(backend->renew({keys, "owner-a", "", 30s})));
    CHECK(pttl(*server, keys.lock) <= 1500);
    auto refused = try_acquire(*backend, request("owner-b", "hold-b"));
    CHECK_FALSE(refused.acquired);
    CHECK(refused.held_until_ms == since + 1500);
    REQUIRE(refused.holder);
    CHECK(refused.holder->user == "alice");
    CHECK(refused.lease_left <= 1500ms);
    CHECK_FALSE(try_acquire(*backend, request("owner-a", "hold-2")).acquired);

    // A replay of the final release is still recognised as ours.
    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-1", 1500ms))) == 0);

    // The queue head, blocked no longer than the key's PTTL, gets it once Redis expired it.
    REQUIRE(eventually([&] { return !exists(*server, keys.lock); }, 3s));
    CHECK(server_time_ms(*server) >= since + 1500);
    CHECK(try_acquire(*backend, waiter("wa")).acquired);
}

TEST_CASE("a release after --min-hold has passed deletes the lease at once", "[min-hold]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);
    std::this_thread::sleep_for(300ms);
    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-1", 200ms))) == 0);
    CHECK(hget(*server, keys.lock, "owner") == "owner-wa"); // handed to the waiter at once
    CHECK(llen(*server, keys.wake + "wa") == 1);
}

TEST_CASE("min-hold applies only when the last hold is released", "[min-hold]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-2", 60s))) == 1);
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK(pttl(*server, keys.lock) > 29'000);
    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-1", 60s))) == 0);
    CHECK(hget(*server, keys.lock, "owner").empty());
    CHECK(pttl(*server, keys.lock) > 59'000);
}

TEST_CASE("a min-hold longer than the lease TTL extends the key past the TTL", "[min-hold]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 2s)).acquired);
    CHECK(ok(backend->release(keys, release_with_min_hold("owner-a", "hold-1", 1h))) == 0);
    CHECK(pttl(*server, keys.lock) > 3'590'000);
}
