#include "redis/topology/deployment.hpp"
#include "redis/transport/endpoint.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using dlock::redis::parse_url;

TEST_CASE("a bare redis URL means port 6379, database 0, no credentials", "[endpoint]") {
    auto ep = parse_url("redis://localhost").value();
    CHECK(ep.host == "localhost");
    CHECK(ep.port == 6379);
    CHECK(ep.db == 0);
    CHECK(ep.user.empty());
    CHECK(ep.password.empty());
    CHECK(ep.unix_path.empty());
    CHECK(ep.display() == "localhost:6379");
}

TEST_CASE("redis URLs carry port and database", "[endpoint]") {
    auto ep = parse_url("redis://10.0.0.5:6380/2").value();
    CHECK(ep.host == "10.0.0.5");
    CHECK(ep.port == 6380);
    CHECK(ep.db == 2);
    CHECK(parse_url("redis://h/").value().db == 0);
    CHECK(parse_url("redis://h:1").value().port == 1);
    CHECK(parse_url("redis://h:65535").value().port == 65535);
}

TEST_CASE("redis URLs carry percent-decoded user and password", "[endpoint]") {
    auto ep = parse_url("redis://app:pa%40ss%3Aw0rd@redis.example:7000/1").value();
    CHECK(ep.user == "app");
    CHECK(ep.password == "pa@ss:w0rd");
    CHECK(ep.host == "redis.example");
    CHECK(ep.port == 7000);
    CHECK(ep.db == 1);

    auto password_only = parse_url("redis://:secret@h").value();
    CHECK(password_only.user.empty());
    CHECK(password_only.password == "secret");

    auto user_only = parse_url("redis://bob@h").value();
    CHECK(user_only.user == "bob");
    CHECK(user_only.password.empty());

    CHECK(parse_url("redis://u:p@ss@h").value().password == "p@ss"); // the last '@' ends it
}

TEST_CASE("IPv6 hosts go in brackets", "[endpoint]") {
    auto ep = parse_url("redis://[::1]:6380").value();
    CHECK(ep.host == "::1");
    CHECK(ep.port == 6380);
    CHECK(ep.display() == "[::1]:6380");
    auto default_port = parse_url("redis://[fe80::1]/3").value();
    CHECK(default_port.port == 6379);
    CHECK(default_port.db == 3);
}

TEST_CASE("unix socket URLs take an absolute path and an optional db", "[endpoint]") {
    auto ep = parse_url("unix:///run/redis/redis.sock").value();
    CHECK(ep.unix_path == "/run/redis/redis.sock");
    CHECK(ep.host.empty());
    CHECK(ep.db == 0);
    CHECK(ep.display() == "/run/redis/redis.sock");
    CHECK(parse_url("unix:///tmp/r.sock?db=4").value().db == 4);
}

TEST_CASE("malformed URLs are usage errors", "[endpoint]") {
    for (auto bad : {"",
                     "localhost",
                     "http://h",
                     "redis://",
                     "redis://:6379",
                     "redis://h:",
                     "redis://h:0",
                     "redis://h:65536",
                     "redis://h:abc",
                     "redis://h:-1",
                     "redis://h:+80",
                     "redis://h/x",
                     "redis://h/-1",
                     "redis://[::1",
                     "redis://[::1]x",
                     "redis://[::1]:",
                     "unix://",
                     "unix://relative.sock",
                     "unix:///p?x=1",
                     "unix:///p?db=",
                     "unix:///p?db=x",
                     "redis://h1,h2"}) { // several hosts are a Cluster, not one server
        INFO(bad);
        auto r = parse_url(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.find("invalid Redis URL") != std::string::npos);
    }
}

TEST_CASE("rediss:// is TLS, with the same grammar", "[endpoint]") {
    auto ep = parse_url("rediss://app:pw@cache.example:6380/2").value();
    CHECK(ep.tls);
    CHECK(ep.host == "cache.example");
    CHECK(ep.port == 6380);
    CHECK(ep.db == 2);
    CHECK(ep.password == "pw");
    CHECK_FALSE(parse_url("redis://h").value().tls);
}

TEST_CASE("bad percent-encoding in credentials is a usage error", "[endpoint]") {
    for (auto bad : {"redis://u:%zz@h", "redis://u:%4@h", "redis://u:abc%@h", "redis://%g1:p@h",
                     "redis://u:%+1@h"}) {
        INFO(bad);
        auto r = parse_url(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
    }
}

TEST_CASE("a minus sign is not a hex digit in a percent escape", "[endpoint]") {
    // "%-1" is not two hex digits (RFC 3986); it must not decode to the byte 0xFF.
    auto r = parse_url("redis://u:%-1@h");
    CHECK_FALSE(r);
}

TEST_CASE("URL errors never show the password", "[endpoint]") {
    for (auto bad :
         {"redis://admin:hunter2@h:notaport", "redis://admin:hunter2@h/notadb", "redis://:hunter2@",
          "redis://admin:hunter2%zz@h", "redis://admin:hun/ter2@h"}) {
        INFO(bad);
        auto r = parse_url(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("hunter2") == std::string::npos);
        CHECK(r.error().message.find("hun/ter2") == std::string::npos);
        CHECK(r.error().message.find("ter2") == std::string::npos);
    }
}

TEST_CASE("display never shows credentials", "[endpoint]") {
    auto ep = parse_url("redis://admin:hunter2@cache:6390/5").value();
    CHECK(ep.display() == "cache:6390");
}
