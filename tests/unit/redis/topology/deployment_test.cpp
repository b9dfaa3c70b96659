#include "redis/topology/deployment.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using dlock::redis::Deployment;
using dlock::redis::parse_deployment;

TEST_CASE("a redis URL with several hosts lists the seeds of one Cluster", "[deployment]") {
    auto d = parse_deployment("redis://app:pw@h1:7001,h2,[::1]:7003").value();
    CHECK(d.kind == Deployment::Kind::direct);
    REQUIRE(d.nodes.size() == 3);
    CHECK(d.nodes[0].display() == "h1:7001");
    CHECK(d.nodes[1].display() == "h2:6379");
    CHECK(d.nodes[2].display() == "[::1]:7003");
    for (const auto& node : d.nodes) {
        CHECK(node.user == "app");
        CHECK(node.password == "pw");
        CHECK_FALSE(node.tls);
    }
    CHECK(d.display() == "h1:7001,h2:6379,[::1]:7003");
    CHECK(parse_deployment("rediss://h1,h2").value().nodes[1].tls);
}

TEST_CASE("a sentinel URL names the sentinels, the master and the master's credentials",
          "[deployment]") {
    auto d = parse_deployment("redis-sentinel://app:pw@s1,s2:26380,s3/2#mymaster").value();
    CHECK(d.kind == Deployment::Kind::sentinel);
    CHECK(d.master_name == "mymaster");
    REQUIRE(d.nodes.size() == 3);
    CHECK(d.nodes[0].display() == "s1:26379"); // the sentinels' port by default
    CHECK(d.nodes[1].display() == "s2:26380");
    // The credentials and database are the master's, not the sentinels'.
    CHECK(d.nodes[0].password.empty());
    CHECK(d.master.user == "app");
    CHECK(d.master.password == "pw");
    CHECK(d.master.db == 2);
    CHECK(d.display() == "master mymaster via s1:26379,s2:26380,s3:26379");

    auto query = parse_deployment("rediss-sentinel://s1?sentinelMasterId=other").value();
    CHECK(query.master_name == "other");
    CHECK(query.master.tls);
    CHECK(query.nodes[0].tls);
}

TEST_CASE("a password from elsewhere goes to the data nodes, not the sentinels", "[deployment]") {
    auto direct = parse_deployment("redis://:url-pw@h1,h2").value();
    direct.set_password("file-pw");
    CHECK(direct.nodes[0].password == "file-pw");
    CHECK(direct.nodes[1].password == "file-pw");
    auto sentinel = parse_deployment("redis-sentinel://s1#m").value();
    sentinel.set_password("file-pw");
    CHECK(sentinel.master.password == "file-pw");
    CHECK(sentinel.nodes[0].password.empty());
}

TEST_CASE("malformed deployment URLs are usage errors that hide secrets", "[deployment]") {
    for (auto bad : {"redis-sentinel://s1,s2",           // no master name
                     "redis-sentinel://s1#",             // empty master name
                     "redis-sentinel://s1?foo=m",        // unknown parameter
                     "redis://h1,,h3",                   // empty host in the list
                     "redis://h1,h2/3",                  // a Cluster has only database 0
                     "redis://h1#m",                     // a master name without Sentinel
                     "redis://h1,rediss://h2",           // mixed schemes
                     "redis://app:S3cret@h1,redis://h2", // ... with a password
                     "unix:///s.sock?password=S3cret",
                     "u:S3cret@h:6379", // no scheme: where credentials end is the last '@'
                     ":S3cret@h", "redis:/u:S3cret@h"}) {
        INFO(bad);
        auto r = parse_deployment(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.starts_with("invalid Redis URL"));
        CHECK(r.error().message.find("S3cret") == std::string::npos);
    }
}
