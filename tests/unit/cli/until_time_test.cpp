#include "cli/until_time.hpp"
#include "unit/utc_zone.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

namespace {

constexpr int64_t kNow = 1'795'000'000'000; // 2026-11-18 11:06:40 UTC

} // namespace

TEST_CASE("pause --until: a clock time is the next one, today or tomorrow", "[until]") {
    test::UtcZone utc;
    CHECK(cli::until_local_time("--until", "12:00", kNow).value() == Millis((53 * 60 + 20) * 1000));
    CHECK(cli::until_local_time("--until", "11:06:50", kNow).value() == Millis(10'000));
    // 11:00 has passed: tomorrow's.
    CHECK(cli::until_local_time("--until", "11:00", kNow).value() ==
          Millis((24 * 3600 - 6 * 60 - 40) * 1000));
}

TEST_CASE("pause --until: a date and time, with a space or a T", "[until]") {
    test::UtcZone utc;
    CHECK(cli::until_local_time("--until", "2026-11-18 12:06:40", kNow).value() ==
          Millis(3600 * 1000));
    CHECK(cli::until_local_time("--until", "2026-11-19T11:06", kNow).value() ==
          Millis((24 * 3600 - 40) * 1000));
}

TEST_CASE("pause --until: the past and anything else are usage errors", "[until]") {
    test::UtcZone utc;
    for (const char* bad : {"2026-11-18 11:00", "2001-01-01T00:00", "teatime", "", "25:00", "9",
                            "09:00 tomorrow", "2026-13-01 10:00", "now"}) {
        const auto r = cli::until_local_time("--until", bad, kNow);
        INFO(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == Fault::bad_input);
        CHECK(r.error().message.starts_with("--until '"));
    }
}
