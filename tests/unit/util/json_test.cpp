#include "util/json.hpp"

#include <catch2/catch.hpp>

using dlock::json_string;

TEST_CASE("JSON strings escape quotes, backslashes and control characters", "[json]") {
    CHECK(json_string("") == "\"\"");
    CHECK(json_string("./backup.sh --full") == "\"./backup.sh --full\"");
    CHECK(json_string("say \"hi\"") == "\"say \\\"hi\\\"\"");
    CHECK(json_string("a\\b") == "\"a\\\\b\"");
    CHECK(json_string("1\n2\t3\r") == "\"1\\n2\\t3\\r\"");
    CHECK(json_string(std::string("\x01\x1b\x7f", 3)) == "\"\\u0001\\u001b\\u007f\"");
    CHECK(json_string(std::string("a\0b", 3)) == "\"a\\u0000b\"");
}

TEST_CASE("JSON strings keep valid UTF-8 and replace invalid bytes", "[json]") {
    CHECK(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92") ==
          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92\"");
    CHECK(json_string("\xff") == "\"\\ufffd\"");
    CHECK(json_string("a\xc3") == "\"a\\ufffd\"");                     // truncated sequence
    CHECK(json_string("\xc0\xaf") == "\"\\ufffd\\ufffd\"");            // overlong
    CHECK(json_string("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\""); // surrogate
    CHECK(json_string("\xe2\x82") == "\"\\ufffd\\ufffd\"");
}
