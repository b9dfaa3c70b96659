#include "redis/protocol/reply_reader.hpp"

#include <catch2/catch.hpp>
#include <string>

using dlock::redis::kMaxReplyBytes;
using dlock::redis::ReplyReader;
using Failure = ReplyReader::Failure;

TEST_CASE("the reader hands out complete replies, one by one", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("*2\r\n:1\r\n$2\r\nab\r\n+OK");
    auto first = reader.next();
    REQUIRE(first);
    CHECK((*first)[1].str() == "ab");
    CHECK(!reader.next());
    reader.feed("\r\n");
    auto second = reader.next();
    REQUIRE(second);
    CHECK(second->str() == "OK");
    CHECK(reader.failure() == Failure::none);
}

TEST_CASE("past the end of an array, or into no array, is nil", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("*1\r\n:7\r\n");
    auto reply = reader.next();
    REQUIRE(reply);
    CHECK((*reply)[5].is_nil());
    CHECK((*reply)[0][0].is_nil());
    CHECK_FALSE((*reply)[5].to_int());
}

TEST_CASE("a length over the limit fails as soon as its header is in", "[reply_reader]") {
    for (const char* header : {"$999999999999\r\n", "*999999999\r\n", "*1\r\n$67108865\r\n"}) {
        ReplyReader reader;
        reader.feed(header);
        CHECK(!reader.next());
        CHECK(reader.failure() == Failure::too_large);
    }
    // Past 64 bits: Debian's hiredis calls it a bad length itself.
    ReplyReader reader;
    reader.feed("$99999999999999999999999\r\n");
    CHECK(!reader.next());
    CHECK(reader.failure() != Failure::none);
}

TEST_CASE("a reply growing past the limit fails without buffering it all", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("+");
    const std::string chunk(1 << 20, 'a'); // a status line that never ends
    size_t fed = 0;
    while (reader.failure() == Failure::none && fed <= 2 * kMaxReplyBytes) {
        reader.feed(chunk);
        fed += chunk.size();
        CHECK(!reader.next());
    }
    CHECK(reader.failure() == Failure::too_large);
    CHECK(fed <= kMaxReplyBytes + chunk.size());
}

TEST_CASE("many small elements count against the limit too", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("*16777216\r\n"); // 128 MiB of element pointers alone
    CHECK(!reader.next());
    CHECK(reader.failure() == Failure::too_large);
}

TEST_CASE("a negative array length is a protocol error, not a broken reply", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("*-5\r\n");
    CHECK(!reader.next());
    CHECK(reader.failure() == Failure::protocol);
    // Debian's hiredis refuses it itself ("Multi-bulk length out of range"); ours when it does not.
    CHECK(!reader.protocol_error().empty());
}

TEST_CASE("hiredis's own protocol errors pass through", "[reply_reader]") {
    ReplyReader reader;
    reader.feed("%1\r\n");
    CHECK(!reader.next());
    CHECK(reader.failure() == Failure::protocol);
    CHECK(reader.protocol_error().find("Protocol error") != std::string_view::npos);
}
