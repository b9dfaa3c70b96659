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

TEST_CASE("compound durations add their parts, largest unit first", "[duration]") {
    CHECK(parse_duration("1m30s").value() == Millis(90'000));
    CHECK(parse_duration("1h15m").value() == Millis(4'500'000));
    CHECK(parse_duration("2h30m15s").value() == Millis(9'015'000));
    CHECK(parse_duration("1d12h").value() == Millis(129'600'000));
    CHECK(parse_duration("1s500ms").value() == Millis(1500));
    CHECK(parse_duration("1d1h1m1s1ms").value() == Millis(90'061'001));
    CHECK(parse_duration("1h0m").value() == Millis(3'600'000));
    CHECK(parse_duration("1d30s").value() == Millis(86'430'000)); // units may be skipped
    // A fraction in the last part only, rounded as a single duration's.
    CHECK(parse_duration("1m30.5s").value() == Millis(90'500));
    CHECK(parse_duration("1s0.5ms").value() == Millis(1001));
    CHECK(parse_duration("1h.5m").value() == Millis(3'630'000));
}

TEST_CASE("compound durations name what is wrong with them", "[duration]") {
    auto message = [](std::string_view text) { return parse_duration(text).error().message; };
    CHECK(message("30s1m") == "invalid duration '30s1m': units must go from largest to smallest "
                              "(d, h, m, s, ms)");
    CHECK(message("1ms1s") == "invalid duration '1ms1s': units must go from largest to smallest "
                              "(d, h, m, s, ms)");
    CHECK(message("1h1d") == "invalid duration '1h1d': units must go from largest to smallest "
                             "(d, h, m, s, ms)");
    CHECK(message("1m1m") == "invalid duration '1m1m': m appears twice");
    CHECK(message("1h30m1h") == "invalid duration '1h30m1h': units must go from largest to "
                                "smallest (d, h, m, s, ms)");
    CHECK(message("1m30") == "invalid duration '1m30': 30 after m has no unit (only a lone "
                             "number means seconds)");
    CHECK(message("1h30.5") == "invalid duration '1h30.5': 30.5 after h has no unit (only a "
                               "lone number means seconds)");
    CHECK(message("1.5m30s") == "invalid duration '1.5m30s': only the last part may have a "
                                "fraction (e.g. 1m30.5s)");
    CHECK(message("2.h30m") == "invalid duration '2.h30m': only the last part may have a "
                               "fraction (e.g. 1m30.5s)");
    for (const std::string bad : {"1m30x", "1mm", "1m s", "1m-30s", "1m+30s", "1m30s ", "m30s",
                                  "1m.s", "1h30M", "1m30e3s"}) {
        INFO(bad);
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.starts_with("invalid duration '" + bad + "': "));
    }
    CHECK(message("-1m30s") == "invalid duration '-1m30s': must not be negative");
}

TEST_CASE("compound durations are capped at 100 years in total", "[duration]") {
    CHECK(parse_duration("36499d24h").value() == Millis(3'153'600'000'000));
    CHECK(parse_duration("36499d23h59m59s1000ms").value() == Millis(3'153'600'000'000));
    const std::string nines(400, '9');
    for (const std::string& bad : std::vector<std::string>{
             "36500d1ms", "36499d25h", "36500d0.001s", "1d" + nines + "h", "1d" + nines + "ms",
             "36499d9223372036854775807ms", "1h" + nines + "." + nines + "s"}) {
        INFO(bad.substr(0, 30));
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.ends_with("': too long (at most 100 years)"));
    }
}

TEST_CASE("formatted durations parse back", "[duration]") {
    for (const int64_t ms : {int64_t{0}, int64_t{250}, int64_t{1000}, int64_t{30'000},
                             int64_t{90'000}, int64_t{192'000}, int64_t{3'600'000},
                             int64_t{5'400'000}, int64_t{86'400'000}, int64_t{129'600'000}}) {
        INFO(ms);
        CHECK(parse_duration(format_duration(Millis(ms))).value() == Millis(ms));
    }
    // Shown to fewer digits than it has: it still parses, to what is shown.
    CHECK(parse_duration(format_duration(Millis(12'345))).value() == Millis(12'300));
    CHECK(parse_duration(format_duration(Millis(5'432'100))).value() == Millis(5'400'000));
}

TEST_CASE("wait durations accept forever", "[duration]") {
    CHECK(parse_wait_duration("forever").value() == std::nullopt);
    CHECK(parse_wait_duration("5s").value() == Millis(5000));
    CHECK(parse_wait_duration("1m30s").value() == Millis(90'000));
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

TEST_CASE("format_duration_exact: every value read back whole", "[duration]") {
    CHECK(format_duration_exact(Millis(1999)) == "1s999ms");
    CHECK(format_duration_exact(Millis(366LL * 86'400'000)) == "366d");
    CHECK(format_duration_exact(Millis(5'400'000)) == "1h30m");
    CHECK(format_duration_exact(Millis(0)) == "0s");
    CHECK(format_duration_exact(Millis(-7'200'000)) == "-2h");
    for (int64_t ms : {1LL, 999LL, 1000LL, 61'001LL, 90'061'001LL, 31'622'400'000LL}) {
        INFO(ms);
        CHECK(parse_duration(format_duration_exact(Millis(ms))).value() == Millis(ms));
    }
}
