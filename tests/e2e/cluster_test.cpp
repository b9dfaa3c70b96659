// dlock's commands against a Redis Cluster, on names whose slots live on each of its three
// masters, seeded with one node or with several; and what a standalone server is still sent.

#include "e2e/cluster_helpers.hpp"
#include "e2e/ops_helpers.hpp"

#include <algorithm>

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("dlock's commands on a Redis Cluster", "[e2e][cluster]") {
    REQUIRE_CLUSTER(cluster);
    SECTION("run, status, history, release, sem and latch on every master") {
        const auto masters = cluster->masters();
        std::string url, stem;
        SECTION("seeded with one master") {
            url = RedisCluster::url(masters[0]);
            stem = "one";
        }
        SECTION("seeded with three nodes") {
            url = cluster->seeds_url();
            stem = "three";
        }
        const auto names = names_on_every_master(*cluster, stem);
        TempDir dir;
        for (const auto& name : names) {
            INFO("name " << name);
            auto r = run_on(url, {"run", name, "--", "true"});
            INFO("stderr: " << r.err);
            CHECK(r.exit_code == 0);
        }
        std::vector<std::unique_ptr<Process>> holders;
        for (const auto& name : names)
            holders.push_back(start_cluster_holder(*cluster, url, dir, name, {"--ttl", "3s"}));

        // status: every name of every master, in one table.
        auto status = run_on(url, {"status"});
        INFO("status:\n" << status.out << status.err);
        CHECK(status.exit_code == 0);
        for (const auto& name : names) {
            const auto rows = lines_with(status.out, name + " ");
            REQUIRE(rows.size() == 1);
            CHECK(contains(rows[0], "exclusive"));
        }
        auto listed = run_on(url, {"status", "--names"});
        CHECK(listed.exit_code == 0);
        const auto listed_names = lines(listed.out);
        for (const auto& name : names)
            CHECK(std::count(listed_names.begin(), listed_names.end(), name) == 1);
        auto one = run_on(url, {"status", "-l", names[2]});
        CHECK(one.exit_code == 0);
        CHECK(contains(one.out, holder_token(dir, names[2])));

        for (const auto& name : names) {
            auto history = run_on(url, {"history", name});
            INFO("history of " << name << ":\n" << history.out << history.err);
            CHECK(history.exit_code == 0);
            CHECK(contains(history.out, "acquire"));
        }
        // release --force on the second master: its holder stops at its next renewal.
        auto forced = run_on(url, {"release", "--force", names[1]});
        INFO("release: " << forced.out << forced.err);
        CHECK(forced.exit_code == 0);
        auto lost = holders[1]->wait(15s);
        CHECK(lost.exit_code == 76);
        let_go(dir, {holders[0].get(), holders[2].get()});
        for (const auto& name : names)
            CHECK_FALSE(cluster->exists(key(name)));

        for (const auto& name : names) {
            INFO("semaphore " << name);
            auto sem = run_on(url, {"sem", "run", "-p", "2", name, "--", "true"});
            INFO("stderr: " << sem.err);
            CHECK(sem.exit_code == 0);
            CHECK(run_on(url, {"sem", "status", name}).exit_code == 1); // nothing held now
        }
        for (const auto& name : names) {
            INFO("latch " << name);
            REQUIRE(run_on(url, {"latch", "create", name, "2"}).exit_code == 0);
            // A waiter blocks on the latch's master until the count reaches zero.
            auto waiter = start_on(url, {"latch", "wait", "-w", "20s", name});
            CHECK(run_on(url, {"latch", "count-down", name}).exit_code == 0);
            CHECK(run_on(url, {"latch", "count-down", name}).exit_code == 0);
            auto woke = waiter->wait(20s);
            INFO("waiter stderr: " << woke.err);
            CHECK(woke.exit_code == 0);
            CHECK(woke.elapsed < 10s);
        }
    }
    SECTION("one run takes names on several masters all or none, in byte order") {
        const auto names = names_on_every_master(*cluster, "multi");
        const std::string url = cluster->seeds_url();
        TempDir dir;
        // Given in reverse, taken in byte order.
        auto all = run_on(url, {"-v", "run", names[2], names[0], names[1], "--", "env"});
        INFO("stderr: " << all.err);
        REQUIRE(all.exit_code == 0);
        std::vector<std::string> order;
        for (const auto& line : lines_with(all.err, "acquired "))
            order.push_back(columns(line.substr(line.find("acquired ")))[1]);
        auto sorted = names;
        std::sort(sorted.begin(), sorted.end());
        CHECK(order == sorted);

        // Held through several renewals (TTL 1 s: every 333 ms), each on its name's master.
        auto renewed =
            run_on(url, {"run", "--ttl", "1s", names[0], names[1], names[2], "--", "sleep", "2.5"});
        INFO("stderr: " << renewed.err);
        CHECK(renewed.exit_code == 0);

        // The name in the middle is held: none is taken, the command does not run.
        auto holder = start_cluster_holder(*cluster, url, dir, names[1]);
        auto refused =
            run_on(url, {"run", names[0], names[1], names[2], "--", "touch", dir / "ran"});
        INFO("stderr: " << refused.err);
        CHECK(refused.exit_code == 75);
        CHECK_FALSE(file_exists(dir / "ran"));
        CHECK_FALSE(cluster->exists(key(names[0])));
        CHECK_FALSE(cluster->exists(key(names[2])));
        let_go(dir, {holder.get()});
    }
    SECTION("with --min-replicas, WAIT goes to the master that took the lease") {
        const auto masters = cluster->masters();
        // Seeded with a replica, which redirects everything (and would refuse WAIT).
        const std::string url = RedisCluster::url(cluster->replica_of(masters[0]));
        for (const auto& name : names_on_every_master(*cluster, "acked")) {
            auto r = run_on(url, {"--min-replicas", "1", "run", name, "--", "true"});
            INFO(name << ": " << r.err);
            CHECK(r.exit_code == 0);
        }
    }
    SECTION("a database other than 0 with a Cluster is a usage error") {
        auto r =
            run_on(RedisCluster::url(cluster->masters()[0]) + "/3", {"run", "x", "--", "true"});
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "is a Redis Cluster node, which has only database 0"));
    }
}

TEST_CASE("a standalone server is sent what it was before Cluster support", "[e2e][cluster]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "warm", "--", "true"}).exit_code == 0); // scripts loaded
    server->cmd({"CONFIG", "RESETSTAT"});
    REQUIRE(run(*server, {"run", "warm", "--", "true"}).exit_code == 0);
    // The acquire and the release scripts (the commands they call are counted too), and no
    // CLUSTER, INFO, ROLE, PING or other probe of what the server is.
    const std::string stats(server->cmd({"INFO", "commandstats"}).str());
    INFO(stats);
    CHECK(contains(stats, "cmdstat_evalsha:calls=2,"));
    for (const std::string probe : {"cluster", "info", "role", "ping", "hello", "command", "asking",
                                    "readonly", "eval:", "script"})
        CHECK_FALSE(contains(stats, "cmdstat_" + probe));
}
