#include "util/json.hpp"
#include "util/log_line.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace dlock;

TEST_CASE("json_string escapes quotes, backslashes and control characters", "[json]") {
    CHECK(json_string("") == "\"\"");
    CHECK(json_string("plain text") == "\"plain text\"");
    CHECK(json_string("say \"hi\"") == "\"say \\\"hi\\\"\"");
    CHECK(json_string("C:\\dir") == "\"C:\\\\dir\"");
    CHECK(json_string("a\nb\tc\rd") == "\"a\\nb\\tc\\rd\"");
    CHECK(json_string(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
    CHECK(json_string("\x1b[31m\x7f") == "\"\\u001b[31m\\u007f\"");
    CHECK(json_string("/slash") == "\"/slash\"");
}

TEST_CASE("json_string keeps valid UTF-8 and replaces invalid bytes", "[json]") {
    CHECK(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92") ==
          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92\"");
    CHECK(json_string("\xff") == "\"\\ufffd\"");
    CHECK(json_string("a\xc3") == "\"a\\ufffd\"");                     // truncated sequence
    CHECK(json_string("\xc0\xaf") == "\"\\ufffd\\ufffd\"");            // overlong '/'
    CHECK(json_string("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\""); // UTF-16 surrogate
    CHECK(json_string("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); // > U+10FFFF
}

TEST_CASE("json log lines carry UTC time with milliseconds, level, pid and message", "[json]") {
    using namespace std::chrono;
    const system_clock::time_point t{milliseconds(1'795'326'404'762)};
    CHECK(log::json_line(t, "warn", 4242, "job is held by \"web-2\"") ==
          "{\"time\":\"2026-11-22T05:46:44.762Z\",\"level\":\"warn\",\"pid\":4242,"
          "\"message\":\"job is held by \\\"web-2\\\"\"}\n");
    CHECK(log::json_line(system_clock::time_point{}, "error", 1, "x") ==
          "{\"time\":\"1970-01-01T00:00:00.000Z\",\"level\":\"error\",\"pid\":1,"
          "\"message\":\"x\"}\n");
}
