#include "util/text.hpp"

#include <catch2/catch.hpp>
#include <string>

using dlock::json_string;

TEST_CASE("json_string quotes and escapes what JSON requires", "[text]") {
    CHECK(json_string("") == "\"\"");
    CHECK(json_string("./backup.sh --full") == "\"./backup.sh --full\"");
    CHECK(json_string("say \"hi\" \\ bye") == "\"say \\\"hi\\\" \\\\ bye\"");
    CHECK(json_string("a\nb\tc\x01") == "\"a\\u000ab\\u0009c\\u0001\"");
    CHECK(json_string(std::string("nul\0!", 5)) == "\"nul\\u0000!\"");
    CHECK(json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\""); // UTF-8 passes through
}
