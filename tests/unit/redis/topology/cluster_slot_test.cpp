#include "redis/protocol/server_error.hpp"
#include "redis/protocol/server_reply.hpp"
#include "redis/topology/cluster_slot.hpp"

#include <catch2/catch.hpp>

using namespace dlock::redis;

TEST_CASE("key slots follow the Cluster specification", "[cluster]") {
    // Values given by `CLUSTER KEYSLOT` of Redis 7.0.
    CHECK(key_slot("dlock:{job}:lock") == 2906);
    CHECK(key_slot("{b}") == 3300);
    CHECK(key_slot("{f}") == 3168);
    CHECK(key_slot("123456789") == 12739); // CRC16/XMODEM's check value 0x31C3
    // Only the first hash tag counts; an empty one does not.
    CHECK(key_slot("dlock:{job}:queue") == key_slot("job"));
    CHECK(key_slot("{}job") != key_slot("job"));
    CHECK(key_slot("a{}{b}") != key_slot("b"));
}

TEST_CASE("MOVED and ASK replies are read, anything else is not a redirect", "[cluster]") {
    auto moved = parse_redirect("MOVED 2906 127.0.0.1:7001").value();
    CHECK_FALSE(moved.ask);
    CHECK(moved.slot == 2906);
    CHECK(moved.host == "127.0.0.1");
    CHECK(moved.port == 7001);
    auto ask = parse_redirect("ASK 3300 ::1:7002").value();
    CHECK(ask.ask);
    CHECK(ask.host == "::1");
    CHECK(ask.port == 7002);
    CHECK(parse_redirect("MOVED 1 :7003").value().host.empty()); // the same host
    CHECK(parse_redirect("MOVED 1 [fe80::1]:7003").value().host == "fe80::1");
    for (auto other : {"ERR wrong", "MOVED", "MOVED x h:1", "MOVED 16384 h:1", "MOVED 1 h",
                       "MOVED 1 h:0", "ASK 1 h:99999", "TRYAGAIN Multiple keys"})
        CHECK_FALSE(parse_redirect(other));
    CHECK(cluster_busy(classify("TRYAGAIN Multiple keys request during rehashing of slot").code));
    CHECK(cluster_busy(classify("CLUSTERDOWN The cluster is down").code));
    CHECK(not_master(classify("READONLY You can't write against a read only replica.").code));
    CHECK_FALSE(not_master(classify("ERR READONLY").code));
    CHECK(classify("UNBLOCKED force unblock from blocking operation, instance state changed "
                   "(master -> replica?)")
              .code == ServerErrorCode::unblocked);
    CHECK(classify("ERR UNBLOCKED").code == ServerErrorCode::other);
}
