// lock::runs_of: one deployment's counters as they are; under a quorum, what a majority of the
// members recorded at least.

#include "lock/runs.hpp"
#include "lock/store.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using lock::Outcome;

namespace {

lock::RunStats stats(int64_t ok, std::optional<int64_t> success_ms) {
    lock::RunStats r;
    r.counts[static_cast<size_t>(Outcome::ok)] = ok;
    if (success_ms) {
        lock::RunRecord rec;
        rec.end_ms = *success_ms;
        rec.host = "h" + std::to_string(*success_ms);
        r.last_success = rec;
        r.last_run = rec;
    }
    return r;
}

lock::MemberStatus member(std::optional<lock::RunStats> runs) {
    lock::MemberStatus m;
    if (!runs) {
        m.report = tl::unexpected(Error{Fault::unavailable, "down"});
        return m;
    }
    lock::StatusReport report;
    lock::NameStatus s;
    s.name = "job";
    s.runs = *runs;
    report.names.push_back(s);
    m.report = report;
    return m;
}

} // namespace

TEST_CASE("outcome names round-trip, and nothing else is an outcome", "[runs]") {
    for (Outcome o : lock::kOutcomes)
        CHECK(lock::outcome_named(lock::outcome_name(o)) == o);
    CHECK(lock::outcome_name(Outcome::skipped_slot_done) == "skipped_slot_done");
    CHECK_FALSE(lock::outcome_named("OK"));
    CHECK_FALSE(lock::outcome_named(""));
}

TEST_CASE("one deployment's runs are its only member's", "[runs]") {
    lock::StatusReading reading;
    reading.members.push_back(member(stats(4, 1000)));
    const auto r = lock::runs_of(reading, "job");
    REQUIRE(r);
    CHECK(r->count(Outcome::ok) == 4);
    CHECK(r->last_success->end_ms == 1000);
    CHECK_FALSE(lock::runs_of(reading, "other"));
}

TEST_CASE("under a quorum, each counter is the largest and each record the newest", "[runs]") {
    // Runs held by different majorities: no member has them all.
    lock::StatusReading reading;
    reading.quorum = 3;
    for (auto [ok, at] : std::vector<std::pair<int64_t, int64_t>>{
             {10, 5000}, {9, 4000}, {12, 6000}, {2, 1000}, {0, 0}})
        reading.members.push_back(
            member(stats(ok, at ? std::optional<int64_t>(at) : std::nullopt)));
    const auto r = lock::runs_of(reading, "job");
    REQUIRE(r);
    CHECK(r->count(Outcome::ok) == 12);
    REQUIRE(r->last_success);
    CHECK(r->last_success->end_ms == 6000);
    CHECK(r->last_success->host == "h6000");
}

TEST_CASE("under a quorum, a member that restarted empty does not hide the runs", "[runs]") {
    lock::StatusReading reading;
    reading.quorum = 2;
    reading.members.push_back(member(stats(0, std::nullopt))); // restarted empty
    reading.members.push_back(member(stats(2, 2000)));
    reading.members.push_back(member(std::nullopt)); // down
    const auto r = lock::runs_of(reading, "job");
    REQUIRE(r);
    CHECK(r->count(Outcome::ok) == 2);
    REQUIRE(r->last_success);
    CHECK(r->last_success->end_ms == 2000);
}

TEST_CASE("under a quorum, fewer answers than a majority give no view", "[runs]") {
    lock::StatusReading reading;
    reading.quorum = 2;
    reading.members.push_back(member(stats(1, 1000)));
    reading.members.push_back(member(std::nullopt));
    reading.members.push_back(member(std::nullopt));
    CHECK_FALSE(lock::runs_of(reading, "job"));
}
