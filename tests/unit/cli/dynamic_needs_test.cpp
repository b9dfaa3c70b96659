#include "cli/dynamic_needs.hpp"

#include <catch2/catch.hpp>

using dlock::app::dynamic_build_need;
using Members = std::vector<dlock::redis::Deployment>;

namespace {

// The deployments of a single --redis URL.
Members members_of(const std::string& url) {
    auto deployment = dlock::redis::parse_deployment(url);
    REQUIRE(deployment);
    return {*deployment};
}

bool mentions(const std::optional<std::string>& need, const std::string& what) {
    return need && need->find(what) != std::string::npos;
}

} // namespace

TEST_CASE("the static build serves plain URLs with IP addresses and unix sockets", "[static]") {
    for (const char* url :
         {"redis://127.0.0.1:6379", "redis://[::1]:7000/2", "redis://10.0.0.1:7000,10.0.0.2:7000",
          "unix:///run/redis.sock", "redis-sentinel://10.0.0.1,10.0.0.2#main"})
        CHECK_FALSE(dynamic_build_need(members_of(url), "mdns4_minimal", true));
}

TEST_CASE("TLS needs the dynamic build", "[static]") {
    CHECK(mentions(dynamic_build_need(members_of("rediss://127.0.0.1:6380"), "", true), "libssl"));
    CHECK(mentions(dynamic_build_need(members_of("rediss-sentinel://10.0.0.1#main"), "", true),
                   "libssl"));
    // Any member of a Redlock quorum.
    const Members quorum = {members_of("redis://10.0.0.1")[0], members_of("rediss://10.0.0.2")[0],
                            members_of("redis://10.0.0.3")[0]};
    CHECK(mentions(dynamic_build_need(quorum, "", true), "libssl"));
}

TEST_CASE("host names need it only with NSS sources a static glibc lacks", "[static]") {
    const Members named = members_of("redis://redis.example:6379");
    CHECK_FALSE(dynamic_build_need(named, "", true));
    CHECK(mentions(dynamic_build_need(named, "resolve", true), "'resolve'"));
    CHECK(mentions(dynamic_build_need(named, "resolve", true), "redis.example"));
    CHECK(mentions(
        dynamic_build_need(members_of("redis-sentinel://s1.example#main"), "myhostname", true),
        "s1.example"));
}

TEST_CASE("a user only NSS knows needs it", "[static]") {
    CHECK(mentions(dynamic_build_need(members_of("unix:///run/redis.sock"), "", false),
                   "/etc/passwd"));
}
