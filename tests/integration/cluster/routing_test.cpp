// Scripts and commands reach the master of each name's slot, whichever node the URL names.

#include "integration/cluster/cluster_helpers.hpp"
#include "redis/stores/status_reader.hpp"

#include <algorithm>
#include <set>

using namespace dlock;
using namespace dlock::test;

namespace {

// One name per master, in the masters' order.
std::vector<lock::Keys> keys_on_every_master(const RedisCluster& cluster, std::string_view stem) {
    std::vector<lock::Keys> out;
    for (int master : cluster.masters())
        out.push_back(lock::Keys::of("dlock", cluster.name_on(master, stem)));
    return out;
}

// Takes a name on every master through `url`, renews them in one call (also from a backend
// that knows no slot yet, as the watchdog's after a reconnection), is refused them from
// another backend, releases them.
void take_renew_release(const RedisCluster& cluster, const std::string& url) {
    const auto masters = cluster.masters();
    const auto keys = keys_on_every_master(cluster, "route");

    auto backend = cluster_backend(url);
    for (size_t i = 0; i < keys.size(); ++i) {
        INFO("name " << keys[i].lock);
        REQUIRE(try_acquire(*backend, request("owner-a", "hold-a"), keys[i]).acquired);
        CHECK(cluster.cmd(masters[i], {"EXISTS", keys[i].lock}).integer() == 1);
    }
    // The renewals of a run, one call; and from a backend that knows no slot yet (the
    // watchdog's, after a reconnection).
    std::vector<lock::RenewRequest> renewals;
    for (const auto& k : keys)
        renewals.push_back({k, "owner-a", "hold-a", 30s, false});
    auto fresh = cluster_backend(url);
    for (auto* renewing : {backend.get(), fresh.get(), fresh.get()}) {
        const auto renewed = renewing->renew(renewals);
        REQUIRE(renewed.size() == keys.size());
        for (const auto& r : renewed) {
            INFO((r ? "" : r.error().message));
            CHECK((r && *r));
        }
    }
    // Someone else is refused on each, and told who holds it.
    auto other = cluster_backend(url);
    for (const auto& k : keys) {
        const auto refused = try_acquire(*other, request("owner-b", "hold-b"), k);
        CHECK_FALSE(refused.acquired);
        CHECK(refused.holder.has_value());
    }
    for (size_t i = 0; i < keys.size(); ++i) {
        CHECK(release_hold(*backend, "owner-a", "hold-a", keys[i]) == 0);
        CHECK(cluster.cmd(masters[i], {"EXISTS", keys[i].lock}).integer() == 0);
    }
}

} // namespace

TEST_CASE("a Redis Cluster serves every name from its master", "[cluster]") {
    REQUIRE_CLUSTER(cluster);
    SECTION("names on every master, whichever node seeds the session") {
        const auto masters = cluster->masters();
        REQUIRE(masters.size() == 3);
        std::string url;
        SECTION("one master's URL") {
            url = RedisCluster::url(masters[1]);
        }
        SECTION("three seeds") {
            url = cluster->seeds_url();
        }
        SECTION("a replica's URL") {
            url = RedisCluster::url(cluster->replica_of(masters[0]));
        }
        SECTION("a dead seed before a live one") {
            url = "redis://127.0.0.1:1,127.0.0.1:" + std::to_string(masters[2]);
        }
        take_renew_release(*cluster, url);
    }
    SECTION("status and masters() cover every master") {
        const auto masters = cluster->masters();
        const auto keys = keys_on_every_master(*cluster, "listed");
        auto backend = cluster_backend(cluster->seeds_url());
        std::vector<std::string> names;
        for (const auto& k : keys) {
            REQUIRE(try_acquire(*backend, request("owner-a", "hold-a"), k).acquired);
            names.push_back(
                k.lock.substr(k.lock.find('{') + 1, k.lock.find('}') - k.lock.find('{') - 1));
        }
        std::sort(names.begin(), names.end());

        // Seeded with a replica: CLUSTER SHARDS from it names the masters.
        redis::ScriptSession session(
            deployment(RedisCluster::url(cluster->replica_of(masters[2]))));
        const auto conns = ok(session.masters());
        std::set<int> ports;
        for (auto* conn : conns)
            ports.insert(conn->options().endpoint.port);
        CHECK(ports == std::set<int>(masters.begin(), masters.end()));
        CHECK(conns.size() == masters.size());

        const auto found = ok(redis::scan_names(session, "dlock", lock::NameScope::in_use));
        for (const auto& name : names)
            CHECK(std::find(found.begin(), found.end(), name) != found.end());
        const auto report = ok(redis::read_status(session, "dlock", names));
        REQUIRE(report.names.size() == names.size());
        for (const auto& status : report.names) {
            INFO(status.name);
            REQUIRE(status.lock.holders.size() == 1);
            CHECK(status.lock.holders[0].info.user == "alice");
        }
        for (const auto& k : keys)
            CHECK(release_hold(*backend, "owner-a", "hold-a", k) == 0);
    }
    SECTION("a node without the script gets it with EVAL") {
        const auto masters = cluster->masters();
        for (int master : masters)
            cluster->cmd(master, {"SCRIPT", "FLUSH"});
        std::map<int, int64_t> loads_before;
        for (int master : masters)
            loads_before[master] = command_calls(*cluster, master)["script|load"];
        const auto keys = keys_on_every_master(*cluster, "noscript");
        auto backend = cluster_backend(RedisCluster::url(masters[0]));
        for (size_t i = 0; i < keys.size(); ++i) {
            REQUIRE(try_acquire(*backend, request("owner-a", "hold-a"), keys[i]).acquired);
            CHECK(command_calls(*cluster, masters[i])["script|load"] ==
                  loads_before[masters[i]] + 1);
            CHECK(release_hold(*backend, "owner-a", "hold-a", keys[i]) == 0);
        }
    }
    SECTION("a database other than 0 on a Cluster node is a usage error") {
        redis::ScriptSession session(deployment(RedisCluster::url(cluster->masters()[0]) + "/2"));
        auto connected = session.connect();
        REQUIRE_FALSE(connected);
        CHECK(connected.error().fault == dlock::Fault::bad_input);
        CHECK_FALSE(connected.error().transient);
        CHECK(connected.error().message.find("only database 0") != std::string::npos);
    }
}
