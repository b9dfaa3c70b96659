#include "util/duration.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("durations accept ms, s, m, h, d and bare seconds", "[duration]") {
    CHECK(parse_duration("500ms").value() == Millis(500));
    CHECK(parse_duration("30s").value() == Millis(30'000));
    CHECK(parse_duration("2m").value() == Millis(120'000));
    CHECK(parse_duration("1h").value() == Millis(3'600'000));
    CHECK(parse_duration("1.5s").value() == Millis(1500));
    CHECK(parse_duration("7").value() == Millis(7000));
    CHECK(parse_duration("2d").value() == Millis(172'800'000));
}

TEST_CASE("bad durations are usage errors", "[duration]") {
    for (auto bad : {"", "s", "-1s", "1x", "1.2.3s", "abc", "1e3", " 1s", "1 s", "1S", ".s"}) {
        INFO(bad);
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().exit_code == 64);
    }
    CHECK_FALSE(parse_duration("99999999999d"));
}

TEST_CASE("wait durations accept forever", "[duration]") {
    CHECK(parse_wait_duration("forever").value() == std::nullopt);
    CHECK(parse_wait_duration("5s").value() == Millis(5000));
}

TEST_CASE("durations format compactly", "[duration]") {
    CHECK(format_duration(Millis(250)) == "250ms");
    CHECK(format_duration(Millis(1500)) == "1.5s");
    CHECK(format_duration(Millis(30'000)) == "30s");
    CHECK(format_duration(Millis(192'000)) == "3m12s");
    CHECK(format_duration(Millis(5'400'000)) == "1h30m");
}
