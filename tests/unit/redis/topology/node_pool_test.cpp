#include "redis/topology/deployment.hpp"
#include "redis/topology/node_pool.hpp"

#include <catch2/catch.hpp>

using dlock::redis::Deployment;
using dlock::redis::NodePool;
using dlock::redis::parse_deployment;

TEST_CASE("a node a redirect names has the seeds' credentials and TLS", "[cluster]") {
    const Deployment d = parse_deployment("rediss://app:pw@h1:7001,h2:7002").value();
    NodePool pool(d);
    for (const auto& seed : d.nodes)
        pool.add(seed);
    REQUIRE(pool.size() == 2);

    const size_t added = pool.node_at("10.0.0.9", 7005);
    CHECK(added == 2);
    CHECK(pool.size() == 3);
    CHECK(pool.endpoint(added).display() == "10.0.0.9:7005");
    CHECK(pool.endpoint(added).user == "app");
    CHECK(pool.endpoint(added).password == "pw");
    CHECK(pool.endpoint(added).tls);

    // Known addresses, seeds included, are found again rather than added.
    CHECK(pool.node_at("10.0.0.9", 7005) == added);
    CHECK(pool.node_at("h2", 7002) == 1);
    CHECK(pool.size() == 3);
    // No node is connected to until one is opened.
    CHECK(pool.live(0) == nullptr);
    CHECK_FALSE(pool.reached());
}

TEST_CASE("a unix-socket seed keeps no address of a redirect", "[cluster]") {
    const Deployment d = parse_deployment("unix:///tmp/dlock-no-such.sock").value();
    NodePool pool(d);
    pool.add(d.nodes.front());
    const size_t added = pool.node_at("10.0.0.1", 6379);
    CHECK(added == 1);
    CHECK(pool.endpoint(added).unix_path.empty());
    CHECK(pool.endpoint(added).display() == "10.0.0.1:6379");
}

TEST_CASE("a cleared pool forgets its nodes and their addresses", "[sentinel]") {
    const Deployment d = parse_deployment("redis://h1:7001").value();
    NodePool pool(d);
    pool.add(d.nodes.front());
    pool.node_at("h9", 7009);
    pool.clear();
    CHECK(pool.empty());
    CHECK(pool.node_at("h9", 7009) == 0);
    CHECK(pool.size() == 1);
}

TEST_CASE("the default node moves on in turn", "[cluster]") {
    const Deployment d = parse_deployment("redis://h1,h2,h3").value();
    NodePool pool(d);
    for (const auto& seed : d.nodes)
        pool.add(seed);
    CHECK(pool.default_node() == 0);
    pool.skip_default();
    pool.skip_default();
    CHECK(pool.default_node() == 2);
    pool.skip_default();
    CHECK(pool.default_node() == 0);
}
