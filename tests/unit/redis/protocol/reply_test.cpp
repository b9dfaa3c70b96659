#include "redis/protocol/reply.hpp"

#include <catch2/catch.hpp>
#include <hiredis/hiredis.h>
#include <string_view>

using dlock::redis::Reply;

namespace {

// Parses one RESP reply the way the connection does.
Reply parse(std::string_view resp) {
    redisReader* reader = redisReaderCreate();
    REQUIRE(reader != nullptr);
    REQUIRE(redisReaderFeed(reader, resp.data(), resp.size()) == REDIS_OK);
    void* raw = nullptr;
    REQUIRE(redisReaderGetReply(reader, &raw) == REDIS_OK);
    redisReaderFree(reader);
    REQUIRE(raw != nullptr);
    return Reply(static_cast<redisReply*>(raw));
}

} // namespace

TEST_CASE("integer replies", "[reply]") {
    auto r = parse(":42\r\n");
    CHECK(r.is_integer());
    CHECK_FALSE(r.is_string());
    CHECK(r.integer() == 42);
    CHECK(r.to_int() == 42);
    CHECK(parse(":-2\r\n").to_int() == -2);
}

TEST_CASE("bulk and status replies are strings", "[reply]") {
    auto bulk = parse("$5\r\nhello\r\n");
    CHECK(bulk.is_string());
    CHECK(bulk.str() == "hello");
    auto status = parse("+PONG\r\n");
    CHECK(status.is_string());
    CHECK(status.str() == "PONG");
    auto binary = parse(std::string_view("$3\r\na\0b\r\n", 9));
    CHECK(binary.str() == std::string_view("a\0b", 3));
}

TEST_CASE("to_int reads integers, whole or held in strings, and nothing else", "[reply]") {
    CHECK(parse("$2\r\n17\r\n").to_int() == 17);
    CHECK(parse("$13\r\n1700000000000\r\n").to_int() == 1'700'000'000'000);
    CHECK(parse("+-3\r\n").to_int() == -3);
    CHECK_FALSE(parse("$3\r\nabc\r\n").to_int());
    CHECK_FALSE(parse("$3\r\n12x\r\n").to_int()); // not a 12
    CHECK_FALSE(parse("$0\r\n\r\n").to_int());
    CHECK_FALSE(parse("$-1\r\n").to_int());
    CHECK_FALSE(parse("-ERR 1\r\n").to_int());
    CHECK_FALSE(parse("*1\r\n:1\r\n").to_int());
    CHECK_FALSE(parse("$20\r\n99999999999999999999\r\n").to_int()); // out of range
}

TEST_CASE("nil replies", "[reply]") {
    auto nil = parse("$-1\r\n");
    CHECK(nil.is_nil());
    CHECK_FALSE(nil.is_string());
    CHECK(nil.str().empty());
    CHECK(nil.size() == 0);
    CHECK(parse("*-1\r\n").is_nil());
}

TEST_CASE("error replies keep the server's message", "[reply]") {
    auto err = parse("-NOSCRIPT No matching script\r\n");
    CHECK(err.is_error());
    CHECK_FALSE(err.is_string());
    CHECK(err.str() == "NOSCRIPT No matching script");
}

TEST_CASE("array replies are viewed element by element", "[reply]") {
    auto arr = parse("*3\r\n:1\r\n$4\r\nweb1\r\n*2\r\n:7\r\n$-1\r\n");
    REQUIRE(arr.is_array());
    REQUIRE(arr.size() == 3);
    CHECK(arr[0].to_int() == 1);
    CHECK(arr[1].str() == "web1");
    REQUIRE(arr[2].size() == 2);
    CHECK(arr[2][0].integer() == 7);
    CHECK(arr[2][1].is_nil());
    CHECK(parse("*0\r\n").size() == 0);
    CHECK(parse(":5\r\n").size() == 0); // not an array
}

TEST_CASE("replies move without double free", "[reply]") {
    auto a = parse("$3\r\none\r\n");
    Reply b(std::move(a));
    CHECK(b.str() == "one");
    auto c = parse(":2\r\n");
    c = std::move(b);
    CHECK(c.str() == "one");
    Reply& same = c;
    c = std::move(same); // self-move keeps the reply
    CHECK(c.str() == "one");
}
