// `dlock check`, the monitoring plugin: the built binary against a private redis-server, runs
// made by the binary (on simulated hosts where the machine allows it) or records written
// straight into the runs hash (old times, hostile values). Exit 0 OK, 1 WARNING, 2 CRITICAL,
// 3 UNKNOWN, one line on stdout; usage errors are 64 and one line on stderr; nothing is written.

#include "e2e/fleet_helpers.hpp"
#include "e2e/ops_helpers.hpp"
#include "e2e/redlock_helpers.hpp"

#include <fmt/format.h>
#include <tuple>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

constexpr int64_t kHourMs = 3'600'000;

// `dlock check ARGS...` on `server`, which must answer as a plugin: one line on stdout starting
// with the state that its exit status means.
ProcessResult check(const RedisServer& server, std::vector<std::string> args) {
    args.insert(args.begin(), "check");
    auto r = run(server, std::move(args));
    INFO("stdout: " << r.out << "stderr: " << r.err);
    REQUIRE(r.exit_code >= 0);
    REQUIRE(r.exit_code <= 3);
    const char* states[] = {"OK - ", "WARNING - ", "CRITICAL - ", "UNKNOWN - "};
    CHECK(r.out.starts_with(states[r.exit_code]));
    CHECK(lines(r.out).size() == 1);
    CHECK(r.out.ends_with("\n"));
    return r;
}

int64_t server_ms(const RedisServer& server) {
    auto t = server.cmd({"TIME"});
    return std::stoll(std::string(t[0].str())) * 1000 + std::stoll(std::string(t[1].str())) / 1000;
}

// HSET of the runs hash of `name`, as lua/lib/runs.lua writes it.
void write_runs(const RedisServer& server, const std::string& name,
                const std::vector<std::string>& fields) {
    const std::string runs = key(name, "runs");
    for (size_t i = 0; i + 1 < fields.size(); i += 2)
        server.cmd({"HSET", runs, fields[i], fields[i + 1]});
}

// A success `ago_ms` before the server's now, by web-2, that took 4s; the last run too.
void write_success(const RedisServer& server, const std::string& name, int64_t ago_ms) {
    const std::string end = std::to_string(server_ms(server) - ago_ms);
    write_runs(server, name,
               {"ok", "1", "last_outcome", "ok", "last_end_ms", end, "last_duration_ms", "4000",
                "last_exit", "0", "last_host", "web-2", "success_end_ms", end,
                "success_duration_ms", "4000", "success_host", "web-2"});
}

// Every key with its type and content (strings, hashes, streams' lengths): what a read-only
// command must leave as it found it.
std::string snapshot(const RedisServer& server) {
    std::string out;
    auto keys = server.cmd({"KEYS", "*"});
    std::vector<std::string> names;
    for (size_t i = 0; i < keys.size(); ++i)
        names.emplace_back(keys[i].str());
    std::sort(names.begin(), names.end());
    for (const auto& k : names) {
        const std::string type(server.cmd({"TYPE", k}).str());
        out += k + " " + type + ":";
        if (type == "hash") {
            auto all = server.cmd({"HGETALL", k});
            std::vector<std::string> pairs;
            for (size_t i = 0; i + 1 < all.size(); i += 2)
                pairs.push_back(std::string(all[i].str()) + "=" + std::string(all[i + 1].str()));
            std::sort(pairs.begin(), pairs.end());
            for (const auto& p : pairs)
                out += " " + p;
        } else if (type == "stream") {
            out += " " + std::to_string(server.cmd({"XLEN", k}).integer());
        } else if (type == "string") {
            out += " " + std::string(server.cmd({"GET", k}).str());
        }
        out += "\n";
    }
    return out;
}

} // namespace

TEST_CASE("check: a name that never ran is CRITICAL, and checking writes nothing", "[e2e][check]") {
    REQUIRE_REDIS(server);
    auto r = check(*server, {"nightly-job", "--max-age", "1d"});
    CHECK(r.exit_code == 2);
    CHECK(
        r.out.starts_with("CRITICAL - nightly-job never succeeded | 'nightly-job_age'=U;;86400;0"));
    CHECK(r.err.empty());
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("check: a semaphore or a latch alone is UNKNOWN: their runs are not counted",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    CHECK(run(*server, {"sem", "run", "-p", "2", "pool", "--", "true"}).exit_code == 0);
    TempDir dir;
    auto holder = start(*server, {"sem", "run", "-p", "2", "pool", "--", "sh", "-c",
                                  "touch \"$0\"; sleep 30", dir / "held"});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 20s));
    auto r = check(*server, {"pool", "--max-age", "1d"});
    holder->signal(SIGTERM);
    holder->wait();
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 3);
    CHECK(r.out.starts_with("UNKNOWN - pool is a semaphore: dlock counts the runs of locks only"));
    CHECK(run(*server, {"latch", "create", "gate", "2"}).exit_code == 0);
    auto latch = check(*server, {"gate", "--max-age", "1d"});
    CHECK(latch.exit_code == 3);
    CHECK(latch.out.starts_with("UNKNOWN - gate is a latch: "));
}

TEST_CASE(
    "check: a semaphore with every permit free is still UNKNOWN, a lock of its name is judged",
    "[e2e][check]") {
    REQUIRE_REDIS(server);
    // A free semaphore leaves only its fencing counter: no hash, no history, no counters.
    REQUIRE(run(*server, {"sem", "run", "-p", "2", "pool", "--", "true"}).exit_code == 0);
    REQUIRE_FALSE(exists(*server, key("pool", "sem")));
    auto r = check(*server, {"pool", "--max-age", "1d"});
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 3);
    CHECK(r.out.starts_with("UNKNOWN - pool is a semaphore: dlock counts the runs of locks only"));
    // metrics agrees: no run counters for it.
    CHECK_FALSE(contains(run(*server, {"metrics", "pool"}).out, "dlock_runs_total{name=\"pool\""));

    // The lock of the same name, once run, is a lock again: judged by its runs.
    REQUIRE(run(*server, {"run", "pool", "--", "true"}).exit_code == 0);
    r = check(*server, {"pool", "--max-age", "1d"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.starts_with("OK - pool last succeeded "));

    // A name nobody used is still CRITICAL: it never succeeded.
    r = check(*server, {"never-used", "--max-age", "1d"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.starts_with("CRITICAL - never-used never succeeded"));
}

TEST_CASE("check: a recent success is OK, with the host, exit status and performance data",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "nightly-job", "--", "true"}).exit_code == 0);
    const auto before = snapshot(*server);
    auto r = check(*server, {"nightly-job", "--max-age", "1h", "--warn-age", "30m"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.starts_with("OK - nightly-job last succeeded "));
    CHECK(contains(r.out, " ago on " + this_host() + " (exit 0, took "));
    CHECK(contains(r.out, " | 'nightly-job_age'="));
    CHECK(contains(r.out, "s;1800;3600;0 'nightly-job_duration'="));
    CHECK(contains(r.out, "'nightly-job_ok'=1c;;;0"));
    CHECK(contains(r.out, "'nightly-job_failed'=0c;;;0"));
    CHECK(snapshot(*server) == before); // read-only
}

TEST_CASE("check: a success older than --max-age is CRITICAL, older than --warn-age WARNING",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    write_success(*server, "old-job", 26 * kHourMs);
    auto old = check(*server, {"old-job", "--max-age", "1d"});
    CHECK(old.exit_code == 2);
    CHECK(old.out.starts_with("CRITICAL - old-job last succeeded 1d2h ago on web-2 (exit 0, took "
                              "4s), more than --max-age 1d | 'old-job_age'=936"));

    write_success(*server, "warm-job", 2 * kHourMs);
    auto warm = check(*server, {"warm-job", "--max-age", "1d", "--warn-age", "1h"});
    CHECK(warm.exit_code == 1);
    // An age is to the second ("2h" now, "2h0m" a second later on a slow machine).
    CHECK(warm.out.starts_with("WARNING - warm-job last succeeded 2h"));
    CHECK(contains(warm.out, " ago on web-2 (exit 0, took 4s), more than --warn-age 1h | "));
    CHECK(contains(warm.out, "'warm-job_age'=72"));
    CHECK(contains(warm.out, "s;3600;86400;0 'warm-job_duration'=4s;;;0"));
    CHECK(check(*server, {"warm-job", "--max-age", "1d", "--warn-age", "3h"}).exit_code == 0);
}

TEST_CASE("check: a real success turns CRITICAL once older than --max-age", "[e2e][check]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    // Generous: a slow machine may take a while between the run and the first check.
    CHECK(eventually(
        [&] {
            return check(*server, {"job", "--max-age", "1s"}).exit_code == 2;
        },
        30s));
}

TEST_CASE("check: a run that failed after the last success is a WARNING that says so",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    REQUIRE(run(*server, {"run", "job", "--", "sh", "-c", "exit 3"}).exit_code == 3);
    auto r = check(*server, {"job", "--max-age", "1d"});
    CHECK(r.exit_code == 1);
    CHECK(r.out.starts_with("WARNING - job last run failed on " + this_host() + " "));
    CHECK(contains(r.out, " ago (exit 3, took "));
    CHECK(contains(r.out, "; last succeeded "));
    CHECK(contains(r.out, "'job_ok'=1c;;;0 'job_failed'=1c;;;0"));
    // Succeeding again clears it.
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    CHECK(check(*server, {"job", "--max-age", "1d"}).exit_code == 0);
}

TEST_CASE("check: a run that lost its lease is a WARNING", "[e2e][check]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    auto holder = start_holder(*server, dir, "job", {"--ttl", "3s"});
    auto running = check(*server, {"job", "--max-age", "1d"});
    CHECK(running.exit_code == 0); // running now changes nothing by itself
    CHECK(contains(running.out, "; running now on " + this_host() + " since "));
    REQUIRE(run(*server, {"release", "--force", "job"}).exit_code == 0);
    CHECK(holder->wait(30s).exit_code == 76);
    auto r = check(*server, {"job", "--max-age", "1d"});
    CHECK(r.exit_code == 1);
    CHECK(r.out.starts_with("WARNING - job last run lost its lease on " + this_host()));
    CHECK(contains(r.out, "(exit 76, took "));
    CHECK(contains(r.out, "'job_lost'=1c;;;0"));
}

TEST_CASE("check: a lost lease and a timeout written in the runs hash are WARNINGs",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    const std::string now = std::to_string(server_ms(*server));
    for (auto [outcome, words, status] : {std::tuple{"lost", "lost its lease", "76"},
                                          std::tuple{"timed_out", "timed out", "124"}}) {
        write_success(*server, outcome, 26 * kHourMs);
        write_runs(*server, outcome,
                   {outcome, "1", "last_outcome", outcome, "last_end_ms", now, "last_duration_ms",
                    "2000", "last_exit", status, "last_host", "web-1"});
        auto r = check(*server, {outcome, "--max-age", "2d"});
        CHECK(r.exit_code == 1);
        CHECK(r.out.starts_with(fmt::format("WARNING - {} last run {} on web-1 ", outcome, words)));
        CHECK(contains(
            r.out,
            fmt::format(" ago (exit {}, took 2s); last succeeded 1d2h ago on web-2 |", status)));
    }
}

TEST_CASE("check: several names, the worst state wins and comes first", "[e2e][check]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "good-job", "--", "true"}).exit_code == 0);
    auto r = check(*server, {"good-job", "bad-job", "--max-age", "1d"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.starts_with("CRITICAL - bad-job never succeeded [CRITICAL]; good-job last "
                            "succeeded "));
    CHECK(contains(r.out, "[OK] | 'bad-job_age'=U"));
    CHECK(contains(r.out, "'good-job_ok'=1c"));
}

TEST_CASE("check: unreachable Redis or a refused password is UNKNOWN (3), not 69", "[e2e][check]") {
    {
        REQUIRE_REDIS(server);
        server->stop();
        auto r = check(*server, {"nightly-job", "--max-age", "1d"});
        CHECK(r.exit_code == 3);
        CHECK(r.out.starts_with("UNKNOWN - cannot read nightly-job: "));
    }
    REQUIRE_REDIS(guarded);
    guarded->cmd({"CONFIG", "SET", "requirepass", "right-Pa55word"});
    auto r = run(*guarded, {"check", "a", "b", "--max-age", "1d"},
                 {{"DLOCK_REDIS_PASSWORD", "wrong-pass"}});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 3);
    CHECK(r.out.starts_with("UNKNOWN - cannot read a, b: "));
    CHECK(lines(r.out).size() == 1);
    CHECK_FALSE(contains(r.out + r.err, "wrong-pass"));
}

TEST_CASE("check: bad input is a usage error (64) on stderr and reads nothing", "[e2e][check]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    const auto before = snapshot(*server);
    const std::vector<std::vector<std::string>> bad{
        {"check", "job"},
        {"check", "--max-age", "1d"},
        {"check", "bad name", "--max-age", "1d"},
        {"check", "job{x}", "--max-age", "1d"},
        {"check", "job", "--max-age", "soon"},
        {"check", "job", "--max-age", "0"},
        {"check", "job", "--max-age", "-1h"},
        {"check", "job", "--max-age", "1h", "--warn-age", "1h"},
        {"check", "job", "--max-age", "1h", "--warn-age", "2h"},
        {"check", "job", "--max-age", "1h", "--bogus"},
        {"check", "job", "--max-age", "1h", "--", "true"},
    };
    for (const auto& args : bad) {
        auto r = run(*server, args);
        INFO(args.size() << " args, last " << args.back() << "; stdout: " << r.out
                         << "stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(r.out.empty());
        CHECK(one_line(r.err));
    }
    CHECK(snapshot(*server) == before);
}

TEST_CASE("check: the hosts of a fleet appear in the line", "[e2e][check][fleet]") {
    if (!can_simulate_hosts()) {
        WARN("cannot simulate hosts here (needs root and unshare): skipped");
        return;
    }
    REQUIRE_REDIS(server);
    REQUIRE(run_as_host(*server, "web-2", {"run", "nightly-job", "--", "true"}).exit_code == 0);
    auto ok = check(*server, {"nightly-job", "--max-age", "1d"});
    CHECK(ok.exit_code == 0);
    CHECK(contains(ok.out, " ago on web-2 (exit 0, took "));
    REQUIRE(run_as_host(*server, "web-1", {"run", "nightly-job", "--", "sh", "-c", "exit 3"})
                .exit_code == 3);
    auto warn = check(*server, {"nightly-job", "--max-age", "1d"});
    CHECK(warn.exit_code == 1);
    CHECK(warn.out.starts_with("WARNING - nightly-job last run failed on web-1 "));
    CHECK(contains(warn.out, "(exit 3, took "));
    CHECK(contains(warn.out, "; last succeeded "));
    CHECK(contains(warn.out, " ago on web-2 |"));
}

TEST_CASE("check: hostile values in the runs hash never crash it and give a sane state",
          "[e2e][check]") {
    REQUIRE_REDIS(server);
    const std::vector<std::string> values{"garbage",
                                          "",
                                          "-1",
                                          "-9223372036854775808",
                                          "9223372036854775807",
                                          "99999999999999999999999",
                                          "1e308",
                                          "nan",
                                          "0x10",
                                          "12abc",
                                          "\n|'x'=1"};
    const std::vector<std::string> fields{"ok",
                                          "failed",
                                          "timed_out",
                                          "lost",
                                          "skipped_busy",
                                          "skipped_slot_done",
                                          "skipped_paused",
                                          "last_outcome",
                                          "last_end_ms",
                                          "last_duration_ms",
                                          "last_exit",
                                          "last_host",
                                          "success_end_ms",
                                          "success_duration_ms",
                                          "success_host"};
    for (const auto& value : values) {
        server->cmd({"DEL", key("job", "runs")});
        for (const auto& field : fields)
            write_runs(*server, "job", {field, value});
        auto r = check(*server, {"job", "--max-age", "1d"}); // a plugin's line, 0 to 3
        INFO("value " << value << "; stdout: " << r.out << "stderr: " << r.err);
        CHECK(r.term_signal == 0);
    }
    // A wrong type where the hash should be.
    server->cmd({"DEL", key("job", "runs")});
    server->cmd({"SET", key("job", "runs"), "not a hash"});
    auto r = check(*server, {"job", "--max-age", "1d"});
    CHECK(r.exit_code != 0);
}

TEST_CASE("check under Redlock: the majority's view, still a verdict with one member down",
          "[e2e][check][redlock]") {
    Members members;
    for (int i = 0; i < 3; ++i) {
        members.push_back(RedisServer::start());
        DLOCK_SKIP_UNLESS_STARTED(members.back(), "redis-server", "Redis");
    }
    REQUIRE(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 0);
    auto all = run_raw(on_members(members, {"check", "job", "--max-age", "1d"}));
    INFO("stdout: " << all.out << "stderr: " << all.err);
    CHECK(all.exit_code == 0);
    CHECK(all.out.starts_with("OK - job last succeeded "));

    members[1]->stop();
    auto one_down = run_raw(on_members(members, {"check", "job", "--max-age", "1d"}));
    INFO("stdout: " << one_down.out << "stderr: " << one_down.err);
    CHECK(one_down.exit_code == 0);
    CHECK(one_down.out.starts_with("OK - job last succeeded "));
    CHECK(lines(one_down.out).size() == 1);

    members[2]->stop();
    auto two_down = run_raw(on_members(members, {"check", "job", "--max-age", "1d"}));
    INFO("stdout: " << two_down.out << "stderr: " << two_down.err);
    CHECK(two_down.exit_code == 3);
    CHECK(two_down.out.starts_with("UNKNOWN - cannot read job: "));
    CHECK(lines(two_down.out).size() == 1);
}

TEST_CASE("check under Redlock: runs held by different majorities all count, and a member "
          "restarted empty hides none",
          "[e2e][check][redlock]") {
    Members members;
    std::vector<std::string> args;
    for (int i = 0; i < 3; ++i) {
        members.push_back(RedisServer::start());
        DLOCK_SKIP_UNLESS_STARTED(members.back(), "redis-server", "Redis");
        args.insert(args.end(), {"--redis", members.back()->url()});
    }
    args.insert(args.end(), {"check", "job", "--max-age", "1d"});
    // A success an hour ago held on members 0 and 1; then member 0 restarted empty.
    write_success(*members[1], "job", kHourMs);
    auto r = run_raw(args);
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.starts_with("OK - job last succeeded 1h"));
    CHECK(contains(r.out, " ago on web-2 (exit 0, took 4s) |"));
    CHECK(contains(r.out, "'job_failed'=0c"));

    // A later failure held on members 1 and 2.
    for (size_t i : {1, 2})
        write_runs(*members[i], "job",
                   {"failed", "1", "last_outcome", "failed", "last_end_ms",
                    std::to_string(server_ms(*members[i])), "last_duration_ms", "2000", "last_exit",
                    "3", "last_host", "web-1"});
    auto two = run_raw(args);
    INFO("stdout: " << two.out << "stderr: " << two.err);
    CHECK(two.exit_code == 1);
    CHECK(two.out.starts_with("WARNING - job last run failed on web-1 "));
    CHECK(contains(two.out, "last succeeded 1h"));
    CHECK(contains(two.out, "'job_failed'=1c"));
    CHECK(contains(two.out, "'job_ok'=1c"));
}
