// A held lease through the death of its master (kill -9): kept if its replica had it, lost (76)
// if not.

#include "e2e/cluster_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("a master killed while a lease is held: kept if its replica had it, else 76",
          "[e2e][cluster][failover]") {
    REQUIRE_CLUSTER(cluster);
    const int master = cluster->masters()[0];
    const int replica = cluster->replica_of(master);
    bool replicated = true;
    SECTION("its replica had the lease: kept") {}
    SECTION("its replica did not have it: 76") {
        replicated = false;
    }
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
