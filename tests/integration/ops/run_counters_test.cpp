// The run counters (lua/lib/runs.lua) written by release.lua, acquire.lua and history_add.lua,
// read back through lua/status.lua: what each outcome counts, what is not counted, the last run
// and the last success, the key's lifetime, and that a broken counters key never fails the lock
// operation nor the reading.

#include "integration/lock_helpers.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/status_reader.hpp"

using namespace dlock;
using namespace dlock::test;
using lock::Outcome;

namespace {

lock::RunStats runs(const RedisServer& server, const std::string& name = "job") {
    auto conn = server.connect();
    auto session = server.session();
    auto report = ok(redis::read_status(session, "dlock", {name}));
    REQUIRE(report.names.size() == 1);
    return report.names[0].runs;
}

// One whole run of owner `who`: acquired, then released with `exit_status` counted as `outcome`.
void one_run(lock::Backend& backend, const std::string& who, std::optional<int> exit_status,
             std::optional<Outcome> outcome) {
    const std::string owner = "owner-" + who, hold = "hold-" + who;
    REQUIRE(try_acquire(backend, request(owner, hold, 30s, "", 3s, who)).acquired);
    lock::ReleaseRequest r{owner, hold, 3s, false, exit_status};
    r.outcome = outcome;
    REQUIRE(ok(backend.release(job_keys(), r)) == 0);
}

} // namespace

TEST_CASE("each release with an outcome counts once, and keeps the last run and success",
          "[runs]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    CHECK(runs(*server).empty());
    one_run(*backend, "alice", 0, Outcome::ok);
    one_run(*backend, "bob", 3, Outcome::failed);
    one_run(*backend, "carol", 124, Outcome::timed_out);
    one_run(*backend, "dave", 76, Outcome::lost);
    const auto r = runs(*server);
    CHECK(r.count(Outcome::ok) == 1);
    CHECK(r.count(Outcome::failed) == 1);
    CHECK(r.count(Outcome::timed_out) == 1);
    CHECK(r.count(Outcome::lost) == 1);
    REQUIRE(r.last_run);
    CHECK(r.last_run->outcome == Outcome::lost);
    CHECK(r.last_run->exit_status == 76);
    CHECK(r.last_run->host == "dave-host");
    REQUIRE(r.last_success);
    CHECK(r.last_success->host == "alice-host");
    CHECK(r.last_success->exit_status == 0);
    CHECK(r.last_success->end_ms <= r.last_run->end_ms);
    // A year and a month after its last write.
    CHECK(pttl(*server, job_keys().runs) > 399LL * 86'400'000);
}

TEST_CASE("a release without an outcome, a re-entry and a rollback count nothing", "[runs]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    one_run(*backend, "alice", std::nullopt, std::nullopt);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    lock::ReleaseRequest inner{"owner-a", "hold-2", 3s, false, 0};
    inner.outcome = Outcome::ok;
    REQUIRE(ok(backend->release(job_keys(), inner)) == 1);
    CHECK(runs(*server).empty());
}

TEST_CASE("a no-wait refusal counts skipped_busy, a queued one does not", "[runs]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    REQUIRE_FALSE(try_acquire(*backend, request("owner-n", "hold-n")).acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("w1")).acquired);
    const auto r = runs(*server);
    CHECK(r.count(Outcome::skipped_busy) == 1);
    CHECK_FALSE(r.last_run);
}

TEST_CASE("history_add counts a lost lease and both kinds of skip", "[runs]") {
    REQUIRE_REDIS(server);
    auto session = server->session();
    const auto keys = job_keys();
    ok(redis::append_history(
        session, keys.history, keys.runs,
        {{"event", "lost"}, {"host", "web-1"}, {"exit_status", "76"}, {"duration_ms", "5000"}}));
    ok(redis::append_history(session, keys.history, keys.runs,
                             {{"event", "skip"}, {"host", "web-2"}, {"waited_ms", "100"}}));
    ok(redis::append_history(session, keys.history, keys.runs,
                             {{"event", "skip"}, {"host", "web-3"}, {"slot", "42"}}));
    ok(redis::append_history(session, keys.history, keys.runs,
                             {{"event", "timeout"}, {"host", "web-1"}, {"max_run_ms", "1000"}}));
    const auto r = runs(*server);
    CHECK(r.count(Outcome::lost) == 1);
    CHECK(r.count(Outcome::skipped_busy) == 1);
    CHECK(r.count(Outcome::skipped_slot_done) == 1);
    CHECK(r.count(Outcome::timed_out) == 0); // the release after it counts the run
    REQUIRE(r.last_run);
    CHECK(r.last_run->outcome == Outcome::lost);
    CHECK(r.last_run->duration_ms == 5000);
    CHECK(r.last_run->host == "web-1");
    CHECK_FALSE(r.last_success);
}

TEST_CASE("a counters key of another type fails neither the lock nor the reading", "[runs]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    command(*server, {"SET", job_keys().runs, "not a hash"});
    one_run(*backend, "alice", 0, Outcome::ok);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    REQUIRE_FALSE(try_acquire(*backend, request("owner-n", "hold-n")).acquired);
    CHECK(runs(*server).empty());
    CHECK(command(*server, {"GET", job_keys().runs}).str() == "not a hash");
}

TEST_CASE("a history key of another type does not stop the counting of lost leases and skips",
          "[runs]") {
    REQUIRE_REDIS(server);
    auto session = server->session();
    const auto keys = job_keys();
    command(*server, {"SET", keys.history, "not a stream"});
    CHECK_FALSE(redis::append_history(
        session, keys.history, keys.runs,
        {{"event", "lost"}, {"host", "web-1"}, {"exit_status", "76"}, {"duration_ms", "5000"}}));
    CHECK_FALSE(redis::append_history(session, keys.history, keys.runs,
                                      {{"event", "skip"}, {"host", "web-3"}, {"slot", "42"}}));
    const auto r = runs(*server);
    CHECK(r.count(Outcome::lost) == 1);
    CHECK(r.count(Outcome::skipped_slot_done) == 1);
}

TEST_CASE("hostile counter values read as sane ones", "[runs]") {
    REQUIRE_REDIS(server);
    command(*server, {"HSET",
                      job_keys().runs,
                      "ok",
                      "-5",
                      "failed",
                      "1e300",
                      "lost",
                      "99999999999999999999999",
                      "timed_out",
                      "7",
                      "last_outcome",
                      "skipped_busy",
                      "last_end_ms",
                      "abc",
                      "success_end_ms",
                      "1700000000000",
                      "success_duration_ms",
                      "-3",
                      "success_host",
                      std::string("evil\x1b[2J") + std::string(1000, 'h')});
    const auto r = runs(*server);
    CHECK(r.count(Outcome::ok) == 0);
    CHECK(r.count(Outcome::failed) == 0);
    CHECK(r.count(Outcome::lost) == 0);
    CHECK(r.count(Outcome::timed_out) == 7);
    CHECK_FALSE(r.last_run); // no valid end time
    REQUIRE(r.last_success);
    CHECK(r.last_success->duration_ms == 0);
    CHECK(r.last_success->host.find('\x1b') == std::string::npos);
    CHECK(r.last_success->host.size() < 300);
}
