// A held lease through a failover of its master: CLUSTER FAILOVER (the replica has everything),
// kill -9 of the master once its replica had the lease (kept), and before (lost: 76).

#include "e2e/cluster_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("CLUSTER FAILOVER while a lease is held: the holder keeps it, the waiter is next",
          "[e2e][cluster][failover]") {
    REQUIRE_CLUSTER(cluster);
    const int master = cluster->masters()[2];
    const int replica = cluster->replica_of(master);
    const std::string name = cluster->name_on(master, "failover");
    const std::string url = RedisCluster::url(master);
    TempDir dir;
    const Env env{{"D", dir.path()}};
    auto holder = start_on(url, {"run", "--ttl", "3s", name, "-c", logged_section(kAwaitGo)}, env);
    REQUIRE(eventually([&] { return file_exists(dir / "log"); }, 20s));
    auto waiter =
        start_on(url, {"run", "-w", "60s", "--ttl", "3s", name, "-c", logged_section("true")}, env);
    REQUIRE(eventually(
        [&] {
            return cluster->cmd(master, {"ZCARD", key(name, "queue")}).integer() == 1;
        },
        20s));

    cluster->cmd(replica, {"CLUSTER", "FAILOVER"});
    REQUIRE(eventually([&] { return cluster->is_master(replica); }, 10s));
    // Longer than the TTL: only renewals on the new master keep the lease.
    std::this_thread::sleep_for(4s);
    CHECK(cluster->cmd(replica, {"EXISTS", key(name)}).integer() == 1);
    CHECK(holder->running());
    touch(dir / "go");
    auto held = holder->wait(20s);
    INFO("holder stderr: " << held.err);
    CHECK(held.exit_code == 0);
    auto next = waiter->wait(20s);
    INFO("waiter stderr: " << next.err);
    CHECK(next.exit_code == 0);
    check_no_overlap(dir / "log", 2);
    REQUIRE(cluster->wait_stable());
}

TEST_CASE("a master killed while a lease is held: kept if its replica had it, else 76",
          "[e2e][cluster][failover]") {
    REQUIRE_CLUSTER(cluster);
    const int master = cluster->masters()[0];
    const int replica = cluster->replica_of(master);
    const bool replicated = GENERATE(true, false);
    const std::string name = cluster->name_on(master, replicated ? "kept" : "lost");
    // Seeded with the other masters: the dead one is only known from redirects.
    const std::string url = "redis://127.0.0.1:" + std::to_string(cluster->masters()[1]) +
                            ",127.0.0.1:" + std::to_string(cluster->masters()[2]);
    if (!replicated) {
        // The replica's link broken and kept down (a password its master does not take): the
        // lease never reaches it.
        cluster->cmd(replica, {"CONFIG", "SET", "masterauth", "not-the-password"});
        cluster->cmd(replica, {"CLIENT", "KILL", "TYPE", "master"});
        cluster->damaged();
    }
    TempDir dir;
    // TTL 15 s: the lease outlives the failover (2-3 s with node timeout 1 s, more on a busy
    // machine); -k 1s: stopped quickly once it is known lost.
    auto holder = start_cluster_holder(*cluster, url, dir, name, {"--ttl", "15s", "-k", "1s"});
    if (replicated)
        REQUIRE(eventually([&] { return cluster->caught_up(master, replica); }, 10s));
    cluster->kill(master);
    // Until the replica takes over, the name's slot is served by nobody: refused at once,
    // with an error naming the dead node, or CLUSTERDOWN once the others noticed (1 s).
    auto meanwhile = run_on(url, {"run", name, "--", "true"});
    INFO("meanwhile: " << meanwhile.err);
    CHECK(meanwhile.exit_code == 69);
    CHECK(one_dlock_line(meanwhile.err));
    CHECK((contains(meanwhile.err, "cannot reach Redis at 127.0.0.1:" + std::to_string(master)) ||
           contains(meanwhile.err, "CLUSTERDOWN")));
    REQUIRE(eventually([&] { return cluster->is_master(replica); }, 30s));
    if (replicated) {
        // A renewal reaches the new master (its TTL back near 15 s); the command goes on.
        REQUIRE(eventually(
            [&] {
                return cluster->cmd(replica, {"PTTL", key(name)}).integer() > 14000;
            },
            15s));
        CHECK(holder->running());
        touch(dir / "go");
        auto r = holder->wait(20s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 0);
    } else {
        auto r = holder->wait(30s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 76);
        CHECK(contains(r.err, "lost the lease on " + name));
    }
    CHECK(cluster->cmd(replica, {"EXISTS", key(name)}).integer() == 0);
}
