#include "redis/protocol/reply_reader.hpp"
#include "redis/protocol/server_reply.hpp"
#include "redis/topology/cluster_shards.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace dlock::redis;

namespace {

Reply parse(const std::string& resp) {
    ReplyReader reader;
    reader.feed(resp);
    auto reply = reader.next();
    REQUIRE(reply);
    return std::move(*reply);
}

std::string bulk(const std::string& s) {
    return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
}

// A CLUSTER SLOTS entry: first, last, [host, port].
std::string slots_entry(const std::string& first, const std::string& last, int port) {
    return "*3\r\n:" + first + "\r\n:" + last + "\r\n*2\r\n" + bulk("10.0.0.1") + ":" +
           std::to_string(port) + "\r\n";
}

Endpoint seed() {
    Endpoint e;
    e.host = "127.0.0.1";
    e.port = 7000;
    return e;
}

} // namespace

TEST_CASE("CLUSTER SLOTS of a real Cluster is read", "[cluster]") {
    auto reply =
        parse("*2\r\n" + slots_entry("0", "8191", 7000) + slots_entry("8192", "16383", 7001));
    auto ranges = parse_cluster_slots(reply, seed());
    REQUIRE(ranges);
    REQUIRE(ranges->size() == 2);
    CHECK((*ranges)[1].first == 8192);
    CHECK((*ranges)[1].last == 16383);
    CHECK((*ranges)[1].port == 7001);
}

TEST_CASE("an absurd topology is one error naming the server", "[cluster]") {
    for (const std::string& entry :
         {slots_entry("0", "16384", 7000), slots_entry("-1", "5", 7000),
          slots_entry("9", "5", 7000), slots_entry("0", "5", 0), slots_entry("0", "5", 70000)}) {
        auto ranges = parse_cluster_slots(parse("*1\r\n" + entry), seed());
        REQUIRE_FALSE(ranges);
        CHECK(ranges.error().fault == dlock::Fault::unavailable);
        CHECK(ranges.error().message.starts_with(
            "Redis at 127.0.0.1:7000 sent an invalid Cluster topology ("));
    }
    std::string overlapping =
        "*2\r\n" + slots_entry("0", "16383", 7000) + slots_entry("0", "16383", 7001);
    CHECK_FALSE(parse_cluster_slots(parse(overlapping), seed()));
}

TEST_CASE("more masters than slots is refused", "[cluster]") {
    std::string shards = "*20000\r\n";
    for (int i = 0; i < 20000; ++i)
        shards += "*4\r\n" + bulk("slots") + "*2\r\n:0\r\n:0\r\n" + bulk("nodes") + "*1\r\n*6\r\n" +
                  bulk("ip") + bulk("10.0.0.1") + bulk("port") + ":" + std::to_string(1 + i) +
                  "\r\n" + bulk("role") + bulk("master");
    auto ranges = parse_cluster_shards(parse(shards), false, seed());
    REQUIRE_FALSE(ranges);
    CHECK(ranges.error().message.find("16384") != std::string::npos);
}

TEST_CASE("a redirect to an impossible host is no redirect", "[cluster]") {
    CHECK_FALSE(parse_redirect("MOVED 1 " + std::string(300, 'h') + ":7000"));
    CHECK_FALSE(parse_redirect("MOVED 99999999999999999999 h:7000"));
    CHECK_FALSE(parse_redirect("ASK -1 h:7000"));
}
