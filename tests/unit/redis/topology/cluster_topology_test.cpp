#include "redis/protocol/server_reply.hpp"
#include "redis/topology/cluster_slot.hpp"
#include "redis/topology/cluster_topology.hpp"
#include "redis/topology/deployment.hpp"
#include "redis/topology/node_pool.hpp"

#include <catch2/catch.hpp>

using namespace dlock::redis;

namespace {

ClusterTopology seeded(const Deployment& d) {
    NodePool nodes(d);
    for (const auto& seed : d.nodes)
        nodes.add(seed);
    return ClusterTopology(d, std::move(nodes));
}

} // namespace

TEST_CASE("a MOVED reply teaches the slot's owner", "[cluster]") {
    const auto d = parse_deployment("redis://app:pw@10.0.0.1:7001,10.0.0.2:7002").value();
    auto cluster = seeded(d);
    CHECK(cluster.kind() == "cluster");
    CHECK_FALSE(cluster.owner(3300));

    const auto to = parse_redirect("MOVED 3300 10.0.0.3:7003");
    REQUIRE(to);
    cluster.moved(*to, d.nodes.front());
    const auto owner = cluster.owner(3300);
    REQUIRE(owner);
    CHECK(owner->display() == "10.0.0.3:7003");
    CHECK(owner->password == "pw");
    // That slot alone.
    CHECK_FALSE(cluster.owner(3299));
    CHECK_FALSE(cluster.owner(3301));

    // A later MOVED for the same slot wins: after a failover, the promoted replica.
    cluster.moved(*parse_redirect("MOVED 3300 10.0.0.2:7002"), d.nodes.front());
    CHECK(cluster.owner(3300)->display() == "10.0.0.2:7002");
}

TEST_CASE("a MOVED reply without a host names the replying server's host", "[cluster]") {
    const auto d = parse_deployment("redis://10.0.0.1:7001").value();
    auto cluster = seeded(d);
    const auto to = parse_redirect("MOVED 12182 :7005");
    REQUIRE(to);
    cluster.moved(*to, d.nodes.front());
    CHECK(cluster.owner(12182)->display() == "10.0.0.1:7005");
}

TEST_CASE("a key's slot is looked up by its hash tag", "[cluster]") {
    const auto d = parse_deployment("redis://10.0.0.1:7001").value();
    auto cluster = seeded(d);
    const uint16_t slot = key_slot("{job}");
    cluster.moved(*parse_redirect("MOVED " + std::to_string(slot) + " 10.0.0.4:7004"),
                  d.nodes.front());
    CHECK(cluster.owner(key_slot("dlock:{job}:token"))->display() == "10.0.0.4:7004");
}
