#include "cli/watch_view.hpp"
#include "unit/utc_zone.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace dlock::lock;
using namespace std::chrono_literals;
using dlock::test::UtcZone;

namespace {

constexpr int64_t kNow = 1'700'000'000'000; // 2023-11-14 22:13:20 UTC

NameStatus held_job() {
    NameStatus job{"job", {}, {}, {}, {}, {}, false};
    job.lock.state = LockStatus::State::exclusive;
    job.lock.holders = {
        HolderStatus{HolderInfo{"web-1", 4242, "alice", "./backup.sh", kNow - 60'000, 17}, 27s, 1}};
    job.runs.counts[static_cast<size_t>(Outcome::ok)] = 5;
    job.runs.counts[static_cast<size_t>(Outcome::failed)] = 1;
    job.runs.counts[static_cast<size_t>(Outcome::skipped_busy)] = 2;
    job.runs.last_run = RunRecord{Outcome::failed, kNow - 192'000, 12'500, 3, "web-2"};
    job.runs.last_success = RunRecord{Outcome::ok, kNow - 7'200'000, 11'000, 0, "web-1"};
    return job;
}

app::StatusAnswer answer(std::vector<NameStatus> names) {
    StatusReport report;
    report.server_now_ms = kNow;
    report.names = std::move(names);
    app::StatusAnswer a;
    a.reading.members.push_back(MemberStatus{"", "h:6379", report});
    return a;
}

const cli::WatchHeader kHeader{"dlock", "h:6379", 500ms, cli::StatusStyle::table};

} // namespace

TEST_CASE("a watch frame: the header, the status table, then the last runs", "[status][watch]") {
    UtcZone utc;
    const auto a = answer({held_job(), NameStatus{"idle", {}, {}, {}, {}, {}, false}});
    const auto lines = cli::watch_lines(app::WatchState{&a, nullptr, 0}, kHeader);
    const std::vector<std::string> expected{
        "server time 22:13:20  every 500ms  Ctrl-C to quit  prefix dlock on h:6379",
        "",
        "NAME  KIND  STATE      HOST   PID   SINCE     TTL  WAITERS  COMMAND",
        "job   lock  exclusive  web-1  4242  22:12:20  27s  0        ./backup.sh",
        "idle  lock  free       -      -     -         -    0        -",
        "",
        "NAME  LAST RUN  ENDED      HOST   TOOK   EXIT  LAST OK    RUNS",
        "job   failed    3m12s ago  web-2  12.5s  3     2h00m ago  ok 5, failed 1, skipped_busy 2",
    };
    CHECK(lines == expected);
}

TEST_CASE("a watch frame after a failed read: the error first, the last reading stale",
          "[status][watch]") {
    UtcZone utc;
    const auto a = answer({});
    Error error{Fault::unavailable, "cannot reach Redis at h:6379: Connection refused", true};
    const auto lines = cli::watch_lines(app::WatchState{&a, &error, kNow + 5000}, kHeader);
    REQUIRE(lines.size() == 6);
    CHECK(lines[0] == "22:13:25 cannot reach Redis at h:6379: Connection refused; retrying every "
                      "500ms");
    CHECK(lines[1] ==
          "server time 22:13:20 (stale)  every 500ms  Ctrl-C to quit  prefix dlock on h:6379");
    CHECK(lines[3] == "nothing under prefix dlock");
    CHECK(lines[5] == "no runs counted yet");
}

TEST_CASE("the runs table: a name that only skipped has no last run, never a success",
          "[status][watch]") {
    NameStatus skipper{"skipper", {}, {}, {}, {}, {}, false};
    skipper.runs.counts[static_cast<size_t>(Outcome::skipped_slot_done)] = 4;
    const auto a = answer({skipper});
    CHECK(cli::runs_table(a.reading) ==
          "NAME     LAST RUN  ENDED  HOST  TOOK  EXIT  LAST OK  RUNS\n"
          "skipper  -         -      -     -     -     never    skipped_slot_done 4\n");
}
