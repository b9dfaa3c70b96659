#include "redis/topology/deployment.hpp"
#include "redis/topology/router.hpp"
#include "redis/topology/topology.hpp"

#include <catch2/catch.hpp>

using dlock::redis::make_topology;
using dlock::redis::parse_deployment;
using dlock::redis::Router;

TEST_CASE("the factory makes the topology of the URL's kind", "[cluster][sentinel]") {
    // Several hosts are a Cluster's seeds, but it is recognised from its replies, not its URL.
    for (const char* url :
         {"redis://h1:6379", "redis://h1:7001,h2:7002", "rediss://h1", "unix:///tmp/redis.sock"}) {
        const auto d = parse_deployment(url).value();
        CHECK(make_topology(d)->kind() == "direct");
    }
    const auto d = parse_deployment("redis-sentinel://s1:26379,s2:26379#mymaster").value();
    CHECK(make_topology(d)->kind() == "sentinel");
}

TEST_CASE("a direct topology has no successor before its replies name a Cluster", "[cluster]") {
    const auto d = parse_deployment("redis://h1:7001,h2:7002").value();
    auto topology = make_topology(d);
    CHECK(topology->successor() == nullptr);
}

TEST_CASE("an auto --min-replicas is 0 outside Sentinel, a number as it is", "[min-replicas]") {
    auto d = parse_deployment("redis://h1").value();
    d.replication.automatic = true;
    d.replication.min_replicas = 3;
    Router automatic(d);
    CHECK(automatic.topology().kind() == "direct");
    CHECK(automatic.replication(false).min_replicas == 0);
    CHECK(automatic.replication(true).min_replicas == 0);

    d.replication.automatic = false;
    Router fixed(d);
    CHECK(fixed.replication(false).min_replicas == 3);
    CHECK(fixed.replication(true).min_replicas == 3);
}

TEST_CASE("an auto --min-replicas under Sentinel counts no replica before the sentinels answer",
          "[min-replicas][sentinel]") {
    auto d = parse_deployment("redis-sentinel://s1:26379#mymaster").value();
    d.replication.automatic = true;
    Router router(d);
    CHECK(router.topology().kind() == "sentinel");
    CHECK(router.replication(false).min_replicas == 0);
    CHECK(router.replication(true).min_replicas == 0);
}
