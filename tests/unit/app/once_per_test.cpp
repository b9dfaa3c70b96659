#include "app/once_per.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("a slot is described by its nominal bounds in UTC", "[app][once-per]") {
    const lock::SlotRule hourly{Millis(3'600'000), Millis(0), Millis(300'000), false};
    // 2026-11-26 02:00 UTC is 1795658400 s since the epoch.
    const int64_t slot = 1'795'658'400 / 3'600;
    CHECK(app::describe_slot(hourly, slot) == "02:00-03:00 UTC");
    const lock::SlotRule short_slots{Millis(12'000), Millis(0), Millis(5'500), false};
    CHECK(app::describe_slot(short_slots, 1'795'658'412 / 12) == "02:00:12-02:00:24 UTC");
    const lock::SlotRule daily{Millis(86'400'000), Millis(7'200'000), Millis(300'000), false};
    CHECK(app::describe_slot(daily, 1'795'658'400 / 86'400) ==
          "2026-11-26 02:00-2026-11-27 02:00 UTC");

    lock::SlotAnswer done;
    done.state = lock::SlotAnswer::State::done;
    done.slot = done.done_slot = slot;
    done.host = "web-2";
    done.at_ms = 1'795'658'403'000;
    CHECK(app::slot_done_reason(hourly, done) ==
          "done this slot (02:00-03:00 UTC) by web-2 at 02:00:03");
    done.done_slot = slot + 1;
    CHECK(app::slot_done_reason(hourly, done) ==
          "done a later slot (03:00-04:00 UTC) by web-2 at 02:00:03");
}
