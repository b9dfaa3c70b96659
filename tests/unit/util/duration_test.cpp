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
        CHECK(r.error().fault == dlock::Fault::bad_input);
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

TEST_CASE("durations of any length parse without exceptions", "[duration]") {
    const std::string nines(400, '9');
    for (const std::string& bad : std::vector<std::string>{
             nines, nines + "s", nines + "." + nines + "s", "9223372036854775807ms",
             "18446744073709551616ms", "9223372036854775807d", "36501d", "36500.0001d"}) {
        INFO(bad.substr(0, 30));
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.ends_with("': too long (at most 100 years)"));
    }
    CHECK(parse_duration("36500d").value() == Millis(3'153'600'000'000));
    CHECK(parse_duration("3153600000000ms").value() == Millis(3'153'600'000'000));
    // Leading zeros are not digits that count; a fraction of any length is fine.
    CHECK(parse_duration(std::string(400, '0') + "5s").value() == Millis(5000));
    CHECK(parse_duration("0." + std::string(400, '0') + "1s").value() == Millis(0));
    CHECK(parse_duration("1." + nines + "s").value() == Millis(2000));
    CHECK(parse_duration("0.3333333333333333333333333333333d").value() == Millis(28'800'000));
}

TEST_CASE("durations round to the nearest millisecond", "[duration]") {
    CHECK(parse_duration("0.0005s").value() == Millis(1));
    CHECK(parse_duration("0.00049999s").value() == Millis(0));
    CHECK(parse_duration("1.0015s").value() == Millis(1002));
    CHECK(parse_duration("1.5ms").value() == Millis(2));
    CHECK(parse_duration("0.4ms").value() == Millis(0));
    CHECK(parse_duration("2.").value() == Millis(2000));
    CHECK(parse_duration(".5s").value() == Millis(500));
    CHECK(parse_duration("1.25m").value() == Millis(75'000));
    CHECK(parse_duration("0.001d").value() == Millis(86'400));
    CHECK(parse_duration("0.0000000001d").value() == Millis(0));
    CHECK(parse_duration("0.00000001d").value() == Millis(1)); // 0.864 ms
}

TEST_CASE("negative, NaN and infinite durations are refused with a clear message", "[duration]") {
    for (const std::string bad : {"-1s", "-0", "-0.5ms", "-inf"}) {
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message == "invalid duration '" + bad + "': must not be negative");
    }
    for (const std::string bad : {"nan", "NaN", "inf", "infinity", "1e-400s", "1e400", "0x10s"}) {
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.starts_with("invalid duration '" + bad + "': expected a number"));
    }
    CHECK(parse_wait_duration("inf").value() == std::nullopt);
    CHECK_FALSE(parse_wait_duration("-inf"));
    CHECK_FALSE(parse_wait_duration(std::string(400, '9')));
}
