// `dlock run --once-per` on a fleet whose clocks disagree: three hosts simulated with
// libfaketime (clocks -5 s, 0 and +5 s off the server's), each firing on its own local 12 s
// boundaries with --once-per 12s --tolerance 5500ms (at most half the period; over the skew,
// so the host ahead counts toward the slot it fires for, with room for the host behind to start
// late). The host ahead
// fails the first run of every slot; another host retries within the slot. Exactly one successful
// run per slot, none missed. Hidden ([.]): it takes about two minutes; ctest runs it once
// (tests/CMakeLists.txt).

#include "e2e/ops_helpers.hpp"

#include <map>
#include <sstream>
#include <tuple>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

constexpr int kFirings = 9; // per host

// The job: the host ahead ("ahead") fails the first time in each slot, every other run
// succeeds; each run logs "<ok|fail> <slot> <host>".
const std::string kJob = R"(host=$1
if [ "$host" = ahead ] && mkdir "$D/failed-$DLOCK_SLOT" 2>/dev/null; then
  echo "fail $DLOCK_SLOT $host" >> "$D/runs.log"; exit 1
fi
echo "ok $DLOCK_SLOT $host" >> "$D/runs.log"
)";

// One host: waits for its own clock's next 12 s boundary, then runs the job; $2 times. Under
// faketime, `date` and dlock see the host's clock.
const std::string kHost = R"(host=$1; i=0
while [ $i -lt $2 ]; do
  now=$(date +%s%3N); wait=$(( 12000 - now % 12000 ))
  sleep $(( wait / 1000 )).$(printf %03d $(( wait % 1000 )))
  "$DLOCK_BIN" --redis "$URL" run --once-per 12s --tolerance 5500ms -w 30s fleet -- \
    sh "$D/job.sh" "$host"
  echo "$host $?" >> "$D/exits.log"
  i=$(( i + 1 ))
done
)";

std::string dynamic_dlock() {
    const std::string self = dlock_binary();
    return self.substr(0, self.rfind('/') + 1) + "dlock-dynamic";
}

} // namespace

TEST_CASE("once-per: three hosts with skewed clocks run the job once per slot, none missed",
          "[.][slow-once-per-fleet]") {
    if (access("/usr/bin/faketime", X_OK) != 0 || access(dynamic_dlock().c_str(), X_OK) != 0) {
        WARN("faketime or dlock-dynamic missing: skipped");
        return;
    }
    REQUIRE_REDIS(server);
    TempDir dir;
    write_file(dir / "job.sh", kJob);
    write_file(dir / "host.sh", kHost);
    // Only the wall clock is skewed: libfaketime's monotonic clock stalls dlock's renewals.
    const Env env = clean_env({{"D", dir.path()},
                               {"DLOCK_BIN", dynamic_dlock()},
                               {"URL", server->url()},
                               {"FAKETIME_DONT_FAKE_MONOTONIC", "1"}});
    std::vector<std::unique_ptr<Process>> hosts;
    // The host ahead fires once less: its first boundary may be the others' second, and its
    // last failure must have a later host to retry it.
    for (const auto& [name, skew, firings] :
         std::vector<std::tuple<std::string, std::string, int>>{{"ahead", "+5s", kFirings - 1},
                                                                {"exact", "+0s", kFirings},
                                                                {"behind", "-5s", kFirings}})
        hosts.push_back(std::make_unique<Process>(std::vector<std::string>{"-f", skew, "/bin/sh",
                                                                           dir / "host.sh", name,
                                                                           std::to_string(firings)},
                                                  env, "/usr/bin/faketime"));
    for (auto& h : hosts) {
        auto r = h->wait(milliseconds((kFirings + 4) * 12'000 + 60'000));
        INFO("host stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }

    INFO("runs:\n" << read_file(dir / "runs.log") << "exits:\n" << read_file(dir / "exits.log"));
    std::map<long long, std::vector<std::string>> ok, failed;
    for (const auto& line : lines(read_file(dir / "runs.log"))) {
        std::istringstream words(line);
        std::string outcome, host;
        long long slot = 0;
        words >> outcome >> slot >> host;
        (outcome == "ok" ? ok : failed)[slot].push_back(host);
    }
    // Every exit is 0 (ran, or skipped) except the failures the job made on purpose.
    size_t failures = 0;
    for (const auto& line : lines(read_file(dir / "exits.log")))
        failures += line.ends_with(" 0") ? 0 : 1;
    size_t failed_runs = 0;
    for (const auto& [slot, who] : failed)
        failed_runs += who.size();
    CHECK(failures == failed_runs);

    REQUIRE(!ok.empty());
    // Exactly one success per slot, and no slot missed between the first and the last.
    for (const auto& [slot, who] : ok) {
        INFO("slot " << slot);
        CHECK(who.size() == 1);
    }
    CHECK(ok.rbegin()->first - ok.begin()->first + 1 == static_cast<long long>(ok.size()));
    CHECK(ok.size() >= kFirings - 1);
    // The failing host failed in most slots, and each failed slot was retried by another host.
    CHECK(failed.size() >= kFirings / 2);
    for (const auto& [slot, who] : failed) {
        INFO("failed slot " << slot);
        REQUIRE(ok.count(slot) == 1);
        CHECK(ok[slot].front() != "ahead");
    }
}
