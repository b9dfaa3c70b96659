// A master's replica promoted by CLUSTER FAILOVER: leases renew on the new master, and a
// waiter's BLPOP, unblocked by the demotion, blocks again there.

#include "integration/cluster/cluster_helpers.hpp"

#include <future>

using namespace dlock;
using namespace dlock::test;

TEST_CASE("after CLUSTER FAILOVER leases renew and waiters block on the new master",
          "[cluster][failover]") {
    REQUIRE_CLUSTER(cluster);
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
