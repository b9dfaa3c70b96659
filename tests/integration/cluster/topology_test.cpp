// A name's master changing while the name is used: its slot migrated to another master
// (MIGRATING/IMPORTING, MIGRATE, SETSLOT NODE) and CLUSTER FAILOVER. Multi-key scripts wait out
// TRYAGAIN, single keys follow ASK, everything follows MOVED, leases renew on the new master,
// and a waiter's BLPOP blocks again there after MOVED or UNBLOCKED.

#include "integration/cluster/cluster_helpers.hpp"
#include "redis/stores/history.hpp"
#include "redis/topology/cluster_slot.hpp"

#include <future>

using namespace dlock;
using namespace dlock::test;

TEST_CASE("a name's master changes while it is used", "[cluster][migration][failover]") {
    REQUIRE_CLUSTER(cluster);
    SECTION("scripts on a migrating slot wait out TRYAGAIN and follow ASK and MOVED") {
        const auto masters = cluster->masters();
        const int from = masters[0], to = masters[1];
        const std::string name = cluster->name_on(from, "moving");
        const auto keys = lock::Keys::of("dlock", name);
        const uint16_t slot = redis::key_slot(name);
        auto holder = cluster_backend(RedisCluster::url(from));
        REQUIRE(try_acquire(*holder, request("owner-a", "hold-a"), keys).acquired);

        cluster->begin_migration(slot, to);
        // The lock's keys are all on the source, some of the script's are missing: TRYAGAIN until
        // the migration ends, then MOVED to the target.
        auto contender = std::async(std::launch::async, [&] {
            auto slow = deployment(cluster->seeds_url());
            slow.command_timeout = 10s; // the whole migration fits in one call
            redis::LockBackend backend(slow);
            const auto started = Clock::now();
            auto outcome = backend.acquire(keys, request("owner-b", "hold-b"));
            return std::make_pair(std::move(outcome), elapsed_since(started));
        });
        std::this_thread::sleep_for(300ms);
        cluster->migrate_keys(slot, from, to);
        // Now the source answers ASK for the moved keys: one key (the history) is read on the
        // target after ASKING.
        const auto asking = command_calls(*cluster, to)["asking"];
        redis::ScriptSession reader(deployment(RedisCluster::url(from)));
        const auto history = ok(redis::read_history(reader, keys.history, 10));
        CHECK_FALSE(history.empty());
        CHECK(command_calls(*cluster, to)["asking"] > asking);
        // Long enough for more than 5 rounds of ASK, then TRYAGAIN on the target (200 ms apart).
        std::this_thread::sleep_for(1500ms);
        cluster->end_migration(slot, from, to);

        auto [refused, took] = contender.get();
        REQUIRE(refused);
        CHECK_FALSE(refused->acquired);
        REQUIRE(refused->holder.has_value());
        CHECK(refused->holder->user == "alice");
        CHECK(took >= 1500ms); // it waited for the migration, without giving up
        // The holder's session still points at the source: MOVED.
        const lock::RenewRequest renewal{keys, "owner-a", "hold-a", 30s, false};
        const auto renewed = holder->renew(std::span<const lock::RenewRequest>(&renewal, 1));
        REQUIRE(renewed.size() == 1);
        CHECK((renewed[0] && *renewed[0]));
        CHECK(cluster->cmd(to, {"EXISTS", keys.lock}).integer() == 1);
        CHECK(release_hold(*holder, "owner-a", "hold-a", keys) == 0);
        CHECK(cluster->cmd(to, {"EXISTS", keys.lock}).integer() == 0);
    }
    SECTION("a waiter blocked on a slot that moves blocks again on the new master") {
        const auto masters = cluster->masters();
        const int from = masters[2], to = masters[0];
        const std::string name = cluster->name_on(from, "blocked");
        const auto keys = lock::Keys::of("dlock", name);
        const uint16_t slot = redis::key_slot(name);
        bool woken_by_push = true;
        SECTION("woken on the new master") {}
        SECTION("not woken: its wait still ends in time") {
            woken_by_push = false;
        }
        auto backend = cluster_backend(RedisCluster::url(from));
        const Millis wait = 3s;
        auto waiting = std::async(std::launch::async, [&] {
            const auto started = Clock::now();
            auto woken = backend->await_wake(keys, "w1", wait);
            return std::make_pair(std::move(woken), elapsed_since(started));
        });
        REQUIRE(eventually([&] { return cluster->blocked_clients(from) == 1; }, 5s));
        cluster->begin_migration(slot, to);
        cluster->migrate_keys(slot, from, to);
        cluster->end_migration(slot, from, to);
        // Told MOVED, it blocks on the target with what is left of its wait.
        REQUIRE(eventually([&] { return cluster->blocked_clients(to) == 1; }, 2s));
        if (woken_by_push)
            cluster->cmd(to, {"RPUSH", keys.wake + "w1", "1"});
        auto [woken, took] = waiting.get();
        REQUIRE(woken);
        CHECK(*woken == woken_by_push);
        if (woken_by_push)
            CHECK(took < wait);
        else
            CHECK(took >= wait - 100ms);
        CHECK(took < wait + 1s); // every wait bounded
    }
    SECTION("after CLUSTER FAILOVER leases renew and waiters block on the new master") {
        const int master = cluster->masters()[1];
        const int replica = cluster->replica_of(master);
        REQUIRE(replica != 0);
        const std::string name = cluster->name_on(master, "failing");
        const auto keys = lock::Keys::of("dlock", name);
        auto holder = cluster_backend(RedisCluster::url(master));
        REQUIRE(try_acquire(*holder, request("owner-a", "hold-a"), keys).acquired);
        auto waiter_backend = cluster_backend(RedisCluster::url(master));
        REQUIRE_FALSE(try_acquire(*waiter_backend, waiter("w1"), keys).acquired);

        auto waiting = std::async(std::launch::async, [&] {
            const auto started = Clock::now();
            auto woken = waiter_backend->await_wake(keys, "w1", 5s);
            return std::make_pair(std::move(woken), elapsed_since(started));
        });
        REQUIRE(eventually([&] { return cluster->blocked_clients(master) == 1; }, 5s));
        cluster->cmd(replica, {"CLUSTER", "FAILOVER"});
        REQUIRE(eventually([&] { return cluster->is_master(replica); }, 10s));
        // UNBLOCKED on the demoted master; sent again, MOVED to the new one, where it blocks.
        REQUIRE(eventually([&] { return cluster->blocked_clients(replica) == 1; }, 5s));

        const lock::RenewRequest renewal{keys, "owner-a", "hold-a", 30s, false};
        const auto renewed = holder->renew(std::span<const lock::RenewRequest>(&renewal, 1));
        REQUIRE(renewed.size() == 1);
        INFO((renewed[0] ? "" : renewed[0].error().message));
        CHECK((renewed[0] && *renewed[0]));
        // The release wakes the waiter on the new master.
        CHECK(release_hold(*holder, "owner-a", "hold-a", keys) == 0);
        auto [woken, took] = waiting.get();
        REQUIRE(woken);
        CHECK(*woken);
        CHECK(took < 5s);
        CHECK(try_acquire(*waiter_backend, waiter("w1"), keys).acquired);
        CHECK(release_hold(*waiter_backend, "owner-w1", "hold-w1", keys) == 0);
        REQUIRE(cluster->wait_stable());
    }
}
