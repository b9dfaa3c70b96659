#include "app/check.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

using namespace dlock;
using app::CheckState;
using lock::Outcome;

namespace {

constexpr int64_t kNow = 1'800'000'000'000; // server time of every reading here
constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

lock::RunRecord record(Outcome outcome, int64_t ago_ms, int64_t duration_ms, int exit_status,
                       std::string host) {
    lock::RunRecord r;
    r.outcome = outcome;
    r.end_ms = kNow - ago_ms;
    r.duration_ms = duration_ms;
    r.exit_status = exit_status;
    r.host = std::move(host);
    return r;
}

app::CheckInput input(lock::RunStats runs) {
    app::CheckInput in;
    in.name = "nightly-job";
    in.runs = std::move(runs);
    in.now_ms = kNow;
    return in;
}

// The last run and success were this success.
lock::RunStats succeeded(int64_t ago_ms, int64_t duration_ms, std::string host = "web-2") {
    lock::RunStats runs;
    runs.counts[static_cast<size_t>(Outcome::ok)] = 1;
    runs.last_success = record(Outcome::ok, ago_ms, duration_ms, 0, std::move(host));
    runs.last_run = runs.last_success;
    return runs;
}

app::CheckLimits limits(int64_t max_age_ms, int64_t warn_age_ms = 0) {
    app::CheckLimits l;
    l.max_age = Millis(max_age_ms);
    if (warn_age_ms > 0)
        l.warn_age = Millis(warn_age_ms);
    return l;
}

} // namespace

TEST_CASE("check: a recent success is OK, with its host, exit status and duration", "[check]") {
    const auto v = app::judge(
        input(succeeded(3 * kHour + 12 * kMinute, 12 * kMinute + 4 * kSecond)), limits(kDay));
    CHECK(v.state == CheckState::ok);
    CHECK(v.text == "nightly-job last succeeded 3h12m ago on web-2 (exit 0, took 12m4s)");
    CHECK(v.perfdata.starts_with(
        "'nightly-job_age'=11520s;;86400;0 'nightly-job_duration'=724s;;;0"));
    CHECK(v.perfdata.find("'nightly-job_ok'=1c;;;0") != std::string::npos);
    CHECK(v.perfdata.find("'nightly-job_skipped_slot_done'=0c;;;0") != std::string::npos);
}

TEST_CASE("check: never succeeded is CRITICAL, and says how the last run ended", "[check]") {
    auto none = app::judge(input({}), limits(kDay));
    CHECK(none.state == CheckState::critical);
    CHECK(none.text == "nightly-job never succeeded");
    CHECK(none.perfdata.starts_with("'nightly-job_age'=U;;86400;0 'nightly-job_duration'=U;;;0"));

    lock::RunStats failed;
    failed.counts[static_cast<size_t>(Outcome::failed)] = 2;
    failed.last_run = record(Outcome::failed, 23 * kMinute, 2 * kSecond, 3, "web-1");
    auto v = app::judge(input(failed), limits(kDay));
    CHECK(v.state == CheckState::critical);
    CHECK(v.text ==
          "nightly-job never succeeded; last run failed on web-1 23m ago (exit 3, took 2s)");
    CHECK(v.perfdata.find("'nightly-job_failed'=2c") != std::string::npos);
}

TEST_CASE("check: a success older than --max-age is CRITICAL, older than --warn-age WARNING",
          "[check]") {
    auto old = app::judge(input(succeeded(kDay + 2 * kHour, 4 * kSecond)), limits(kDay));
    CHECK(old.state == CheckState::critical);
    CHECK(old.text ==
          "nightly-job last succeeded 1d2h ago on web-2 (exit 0, took 4s), more than --max-age 1d");

    auto warn = app::judge(input(succeeded(20 * kHour, 4 * kSecond)), limits(kDay, 12 * kHour));
    CHECK(warn.state == CheckState::warning);
    CHECK(warn.text.ends_with(", more than --warn-age 12h"));
    CHECK(warn.perfdata.starts_with("'nightly-job_age'=72000s;43200;86400;0"));

    auto fine = app::judge(input(succeeded(11 * kHour, 4 * kSecond)), limits(kDay, 12 * kHour));
    CHECK(fine.state == CheckState::ok);
    // Exactly at the limit is still within it.
    CHECK(app::judge(input(succeeded(kDay, 1)), limits(kDay)).state == CheckState::ok);
}

TEST_CASE("check: a run that failed, timed out or lost its lease after the last success is a "
          "WARNING",
          "[check]") {
    for (auto [outcome, words, status] : {std::tuple{Outcome::failed, "failed", 3},
                                          std::tuple{Outcome::timed_out, "timed out", 124},
                                          std::tuple{Outcome::lost, "lost its lease", 76}}) {
        auto runs = succeeded(kDay + 2 * kHour, kSecond);
        runs.last_run = record(outcome, 23 * kMinute, 2 * kSecond, status, "web-1");
        auto v = app::judge(input(runs), limits(2 * kDay));
        CHECK(v.state == CheckState::warning);
        CHECK(v.text == "nightly-job last run " + std::string(words) + " on web-1 23m ago (exit " +
                            std::to_string(status) +
                            ", took 2s); last succeeded 1d2h ago on web-2");
        // Too old as well: CRITICAL wins.
        CHECK(app::judge(input(runs), limits(kDay)).state == CheckState::critical);
    }
    // A failure before the last success is history.
    auto runs = succeeded(kHour, kSecond);
    runs.last_run = record(Outcome::failed, 2 * kHour, kSecond, 1, "web-1");
    CHECK(app::judge(input(runs), limits(kDay)).state == CheckState::ok);
}

TEST_CASE("check: a run going on now is mentioned and changes nothing", "[check]") {
    auto in = input(succeeded(kHour, kSecond));
    lock::HolderInfo holder;
    holder.host = "web-1";
    holder.since_ms = kNow - 5 * kMinute;
    in.running = holder;
    auto v = app::judge(in, limits(kDay));
    CHECK(v.state == CheckState::ok);
    CHECK(v.text.ends_with("; running now on web-1 since 5m"));
    in.runs = {};
    CHECK(app::judge(in, limits(kDay)).state == CheckState::critical);
}

TEST_CASE("check: hostile records give a sane state, one line, no crash", "[check]") {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    for (int64_t end : {kMin, int64_t{-1}, int64_t{0}, kNow + 10 * kDay, kMax}) {
        for (int64_t duration : {kMin, int64_t{-5}, kMax}) {
            lock::RunStats runs;
            runs.counts.fill(kMin);
            runs.counts[0] = kMax;
            lock::RunRecord r =
                record(Outcome::ok, 0, duration, -2147483647 - 1, "evil\nhost | 'x'=1 \x1b[31m");
            r.end_ms = end;
            runs.last_success = r;
            runs.last_run = r;
            const auto v = app::judge(input(runs), limits(kDay));
            INFO(v.text << " | " << v.perfdata);
            CHECK(v.text.find('\n') == std::string::npos);
            CHECK(v.text.find('|') == std::string::npos);
            CHECK(v.perfdata.find('\n') == std::string::npos);
            if (end > kNow) { // a success in the future: not believed
                CHECK(v.state == CheckState::unknown);
                CHECK(v.text.find(" after the server's time: not believed") != std::string::npos);
            } else
                CHECK(v.state == CheckState::critical);        // ages ago
            CHECK(v.perfdata.find("=-") == std::string::npos); // no negative value
        }
    }
}

TEST_CASE("check: several names, the worst first and its state for the line", "[check]") {
    auto ok = app::judge(input(succeeded(kHour, kSecond)), limits(kDay));
    auto in = input({});
    in.name = "other-job";
    auto critical = app::judge(in, limits(kDay));
    auto line = app::check_line({ok, critical});
    CHECK(line.state == CheckState::critical);
    CHECK(line.line.starts_with("CRITICAL - other-job never succeeded [CRITICAL]; nightly-job last "
                                "succeeded 1h ago on web-2 (exit 0, took 1s) [OK] | "));
    CHECK(line.line.find("'nightly-job_age'=3600s") != std::string::npos);
    CHECK(line.line.find("'other-job_age'=U") != std::string::npos);
    CHECK(line.line.find('\n') == std::string::npos);

    // UNKNOWN outranks OK, not WARNING (the plugins' max_state_alt).
    auto unknown = app::unreadable("x", "connection refused");
    CHECK(app::check_line({ok, unknown}).state == CheckState::unknown);
    auto warn = app::judge(input(succeeded(20 * kHour, kSecond)), limits(kDay, kHour));
    CHECK(app::check_line({unknown, warn}).state == CheckState::warning);
    CHECK(app::check_line({unknown}).line == "UNKNOWN - cannot read x: connection refused");
    CHECK(app::check_exit_status(CheckState::unknown) == 3);
    CHECK(app::check_exit_status(CheckState::critical) == 2);
}

TEST_CASE("check: labels never hold '=' and values are plain seconds", "[check]") {
    auto in = input(succeeded(90 * kSecond, 1500));
    in.name = "a=b";
    auto v = app::judge(in, limits(1500, 500));
    CHECK(v.perfdata.starts_with("'a~b_age'=90s;0.5;1.5;0 'a~b_duration'=1.5s;;;0"));
}

TEST_CASE("check: a run whose exit status is unknown counts as a run, not as none", "[check]") {
    lock::RunStats runs;
    runs.counts[static_cast<size_t>(Outcome::unknown)] = 1;
    runs.last_run = record(Outcome::unknown, 3 * kHour, 2 * kMinute, -1, "web-1");
    const auto v = app::judge(input(runs), limits(kDay));
    CHECK(v.state == CheckState::ok);
    CHECK(v.text == "nightly-job last ended 3h ago on web-1 (exit status unknown, took 2m)");
    CHECK(v.perfdata.find("'nightly-job_unknown'=1c;;;0") != std::string::npos);
    // Older than --max-age: as for a success.
    CHECK(app::judge(input(runs), limits(2 * kHour)).state == CheckState::critical);
}

TEST_CASE("check: an unknown run newer than the last success is what the age is measured from",
          "[check]") {
    auto runs = succeeded(2 * kDay, kMinute);
    runs.last_run = record(Outcome::unknown, kHour, kMinute, -1, "web-1");
    CHECK(app::judge(input(runs), limits(kDay)).state == CheckState::ok);
    // A failure after it is the last run: the success is the reference again.
    runs.last_run = record(Outcome::failed, 10 * kMinute, kMinute, 3, "web-1");
    CHECK(app::judge(input(runs), limits(kDay)).state == CheckState::critical);
}

TEST_CASE("check: a pause holds a stale or never-run name at WARNING and says until when",
          "[check]") {
    lock::Pause pause;
    pause.by = "alice";
    pause.host = "ops-1";
    pause.reason = "db migration";
    pause.since_ms = kNow - kHour;
    pause.until_ms = kNow + kHour;

    auto stale = input(succeeded(3 * kDay, kMinute));
    stale.paused = pause;
    const auto v = app::judge(stale, limits(kDay));
    CHECK(v.state == CheckState::warning);
    CHECK(v.text.find("more than --max-age") != std::string::npos);
    CHECK(v.text.find("; paused by alice@ops-1 until ") != std::string::npos);
    CHECK(v.text.find("(db migration)") != std::string::npos);

    auto never = input({});
    never.paused = pause;
    CHECK(app::judge(never, limits(kDay)).state == CheckState::warning);

    auto fresh = input(succeeded(kHour, kMinute));
    fresh.paused = pause;
    const auto ok = app::judge(fresh, limits(kDay));
    CHECK(ok.state == CheckState::ok);
    CHECK(ok.text.find("paused by alice@ops-1") != std::string::npos);
}
