#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

TEST_CASE("release drops one hold, the last release deletes the lease", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);

    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    CHECK(exists(*server, keys.lock));
    CHECK(hget(*server, keys.lock, "holds") == "1");
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");

    CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    CHECK_FALSE(exists(*server, keys.lock));
}

TEST_CASE("release by a non-owner returns nullopt and changes nothing", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 30s)).acquired);
    auto before = command(*server, {"HGETALL", keys.lock});

    CHECK(release_hold(*backend, "owner-b", "hold-1") == std::nullopt);
    CHECK(release_hold(*backend, "owner-b", "hold-x") == std::nullopt);

    auto after = command(*server, {"HGETALL", keys.lock});
    REQUIRE(after.size() == before.size());
    for (size_t i = 0; i < before.size(); ++i)
        CHECK(after[i].str() == before[i].str());
    CHECK(pttl(*server, keys.lock) > 29'000);
}

TEST_CASE("releasing the same hold twice is idempotent", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).acquired);

    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    CHECK(hget(*server, keys.lock, "holds") == "1");
    CHECK(exists(*server, keys.lock));

    CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    // Without its token a retry cannot be told from a lease that vanished: not ours.
    CHECK(release_hold(*backend, "owner-a", "hold-1") == std::nullopt);
    CHECK_FALSE(exists(*server, keys.lock));
}

TEST_CASE("a lease that vanished is not ours, a retried release of ours is", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto release_fenced = [&](std::string_view hold, int64_t fence) {
        auto r = releasing("owner-a", hold);
        r.fence = fence;
        return ok(backend->release(keys, r));
    };
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s));
    REQUIRE(taken.acquired);
    command(*server, {"FLUSHALL"}); // a restart without persistence
    CHECK(release_fenced("hold-1", taken.fence) == std::nullopt);

    // Released, then the reply lost: the retry finds the release of its token in the history.
    taken = try_acquire(*backend, request("owner-a", "hold-2", 30s));
    REQUIRE(taken.acquired);
    CHECK(release_fenced("hold-2", taken.fence) == 0);
    CHECK(release_fenced("hold-2", taken.fence) == 0);
    // Another token's release proves nothing for us.
    CHECK(release_fenced("hold-2", taken.fence + 1) == std::nullopt);
    CHECK(command(*server, {"KEYS", "*released*"}).size() == 0); // nothing left for it
}

TEST_CASE("releasing a hold id that was never taken keeps the other holds", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    CHECK(release_hold(*backend, "owner-a", "hold-unknown") == 1);
    CHECK(hget(*server, job_keys().lock, "holds") == "1");
}

TEST_CASE("release of a lock never taken returns nullopt", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    CHECK(release_hold(*backend, "owner-a", "hold-1") == std::nullopt);
    CHECK_FALSE(exists(*server, job_keys().lock));
}

TEST_CASE("release after the lease expired returns nullopt", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1", 100ms)).acquired);
    std::this_thread::sleep_for(250ms);
    CHECK(release_hold(*backend, "owner-a", "hold-1") == std::nullopt);
}

TEST_CASE("a non-owner's release does not wake the queue of a held lock", "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    CHECK(release_hold(*backend, "owner-b", "hold-b") == std::nullopt);
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
}

TEST_CASE("a release after expiry still wakes the queue head", "[release.lua]") {
    // The holder's lease ran out: its late release must not strand the waiters.
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h", 150ms)).acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);
    std::this_thread::sleep_for(300ms);
    CHECK(release_hold(*backend, "owner-h", "hold-h") == std::nullopt);
    CHECK(llen(*server, keys.wake + "wa") == 1);
}
