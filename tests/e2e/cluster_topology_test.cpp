// Holders and waiters on a Redis Cluster while it changes under them: 8 concurrent clients
// seeded with different nodes on names on every master, a name's slot migrated to another
// master, and a planned failover (CLUSTER FAILOVER) of a held name's master.

#include "e2e/cluster_helpers.hpp"
#include "redis/topology/cluster_slot.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("mutual exclusion on a Redis Cluster while it changes", "[e2e][cluster][mutex]") {
    REQUIRE_CLUSTER(cluster);
    SECTION("8 concurrent clients never overlap on names on every master") {
        const auto masters = cluster->masters();
        const auto names = names_on_every_master(*cluster, "mx");
        constexpr int kClients = 8, kRounds = 3;
        // Each client is seeded with another node (masters, replicas, the seed list): most of its
        // names are redirected. A section claims a directory per name: mkdir fails on overlap.
        std::vector<std::string> urls{cluster->seeds_url()};
        for (int master : masters) {
            urls.push_back(RedisCluster::url(master));
            urls.push_back(RedisCluster::url(cluster->replica_of(master)));
        }
        TempDir dir;
        const std::string section = "mkdir \"$D/held-$DLOCK_NAME\" || echo \"overlap $DLOCK_NAME\" "
                                    ">> \"$D/bad\"; sleep 0.01; rmdir \"$D/held-$DLOCK_NAME\"; "
                                    "echo \"$DLOCK_NAME\" >> \"$D/done\"";
        std::string all_names;
        for (const auto& name : names)
            all_names += name + " ";
        std::vector<std::unique_ptr<Process>> clients;
        for (int i = 0; i < kClients; ++i)
            clients.push_back(std::make_unique<Process>(
                std::vector<std::string>{
                    "-c",
                    "for r in $(seq " + std::to_string(kRounds) + "); do for n in " + all_names +
                        "; do \"$DLOCK_BIN\" --redis \"$URL\" run -w 60s \"$n\" -c \"$SECTION\" "
                        "|| exit $?; done; done"},
                clean_env({{"D", dir.path()},
                           {"DLOCK_BIN", dlock_binary()},
                           {"URL", urls[static_cast<size_t>(i) % urls.size()]},
                           {"SECTION", section}}),
                "/bin/sh"));
        for (auto& client : clients) {
            auto r = client->wait(120s);
            INFO("stderr: " << r.err);
            CHECK(r.exit_code == 0);
        }
        INFO("overlaps: " << read_file(dir / "bad"));
        CHECK_FALSE(file_exists(dir / "bad"));
        CHECK(lines(read_file(dir / "done")).size() == names.size() * kClients * kRounds);
        for (const auto& name : names)
            CHECK_FALSE(cluster->exists(key(name)));
    }
    SECTION("a slot migrated while a holder and waiters use it: no overlap, every waiter served") {
        const auto masters = cluster->masters();
        const int from = masters[0], to = masters[1];
        const std::string name = cluster->name_on(from, "migrated");
        const uint16_t slot = dlock::redis::key_slot(name);
        TempDir dir;
        constexpr int kClients = 4;
        // TTL 3 s: renewals every second, so some fall inside the migration.
        std::vector<std::unique_ptr<Process>> clients;
        for (int i = 0; i < kClients; ++i)
            clients.push_back(start_on(
                cluster->seeds_url(),
                {"run", "-w", "60s", "--ttl", "3s", name, "-c", logged_section("sleep 0.8")},
                {{"D", dir.path()}}));
        // One holds, the others are queued on the source.
        REQUIRE(eventually(
            [&] {
                return file_exists(dir / "log") &&
                       cluster->cmd(from, {"ZCARD", key(name, "queue")}).integer() == kClients - 1;
            },
            20s));
        cluster->begin_migration(slot, to);
        std::this_thread::sleep_for(600ms); // scripts: TRYAGAIN
        cluster->migrate_keys(slot, from, to);
        std::this_thread::sleep_for(600ms); // ASK to the target, TRYAGAIN there
        cluster->end_migration(slot, from, to);
        for (auto& client : clients) {
            auto r = client->wait(60s);
            INFO("stderr: " << r.err);
            CHECK(r.exit_code == 0);
        }
        check_no_overlap(dir / "log", kClients);
        CHECK(cluster->cmd(to, {"EXISTS", key(name)}).integer() == 0);
        CHECK(cluster->cmd(to, {"ZCARD", key(name, "queue")}).integer() == 0);
    }
    SECTION("CLUSTER FAILOVER while a lease is held: the holder keeps it, the waiter is next") {
        const int master = cluster->masters()[2];
        const int replica = cluster->replica_of(master);
        const std::string name = cluster->name_on(master, "failover");
        const std::string url = RedisCluster::url(master);
        TempDir dir;
        const Env env{{"D", dir.path()}};
        auto holder =
            start_on(url, {"run", "--ttl", "3s", name, "-c", logged_section(kAwaitGo)}, env);
        REQUIRE(eventually([&] { return file_exists(dir / "log"); }, 20s));
        auto waiter = start_on(
            url, {"run", "-w", "60s", "--ttl", "3s", name, "-c", logged_section("true")}, env);
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
}
