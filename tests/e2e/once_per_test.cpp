// `dlock run --once-per PERIOD`: at most one successful run per slot of the server's clock. A
// done slot skips (exit 0, or -E), a failed run leaves it open, --once-per-strict closes it at
// the claim, a run within the tolerance before a boundary counts toward the next slot, and a
// waiter handed the lock after the slot was done skips too.

#include "e2e/ops_helpers.hpp"

#include <algorithm>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string slot_key(const std::string& name) {
    return key(name, "slot");
}

// The server's clock, in ms.
int64_t server_ms(const RedisServer& server) {
    auto t = server.cmd({"TIME"});
    return std::stoll(std::string(t[0].str())) * 1000 + std::stoll(std::string(t[1].str())) / 1000;
}

// The server time of the newest acquisition of `name`: its history's last `acquire` event.
int64_t acquired_at(const RedisServer& server, const std::string& name) {
    auto entries = server.cmd({"XREVRANGE", key(name, "history"), "+", "-", "COUNT", "10"});
    for (size_t i = 0; i < entries.size(); ++i) {
        const auto fields = entries[i][1];
        bool acquire = false;
        int64_t start = -1;
        for (size_t f = 0; f + 1 < fields.size(); f += 2) {
            acquire |= fields[f].str() == "event" && fields[f + 1].str() == "acquire";
            if (fields[f].str() == "start_ms")
                start = std::stoll(std::string(fields[f + 1].str()));
        }
        if (acquire && start >= 0)
            return start;
    }
    FAIL("no acquisition of " << name);
    return 0;
}

int64_t done_slot(const RedisServer& server, const std::string& name) {
    auto v = server.cmd({"HGET", slot_key(name), "slot"});
    return v.is_nil() ? -1 : std::stoll(std::string(v.str()));
}

} // namespace

TEST_CASE("once-per: the first successful run does the slot, later runs skip with exit 0",
          "[e2e][once-per]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server, {"run", "--once-per", "1h", "job", "--", "sh", "-c",
                           "echo $DLOCK_SLOT > \"$0\"", dir / "first"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const int64_t slot = std::stoll(trim(read_file(dir / "first")));
    CHECK(slot == (acquired_at(*server, "job") + 300'000) / 3'600'000); // default tolerance 5m
    CHECK(done_slot(*server, "job") == slot);
    CHECK(trim(std::string(server->cmd({"HGET", slot_key("job"), "host"}).str())) == this_host());
    // Kept past the slot's end: at least until the next boundary + tolerance.
    CHECK(server->cmd({"PTTL", slot_key("job")}).integer() > 3'600'000);
    CHECK_FALSE(exists(*server, key("job")));

    // Skips: nothing on stderr without a terminal (cron), one line at -v, exit 0 or -E.
    r = run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "second"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    r = run(*server, {"-v", "run", "--once-per", "1h", "job", "--", "touch", dir / "second"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "dlock: job: done this slot ("));
    CHECK(contains(r.err, " UTC) by " + this_host() + " at "));
    CHECK(contains(r.err, "; not running touch"));
    r = run(*server, {"run", "-E", "3", "--once-per", "1h", "job", "--", "touch", dir / "second"});
    CHECK(r.exit_code == 3);
    CHECK_FALSE(file_exists(dir / "second"));
    CHECK_FALSE(exists(*server, key("job"))); // every skip gave the lock back

    // Runs without --once-per are not concerned.
    CHECK(run(*server, {"run", "job", "--", "touch", dir / "plain"}).exit_code == 0);
    CHECK(file_exists(dir / "plain"));

    auto history = run(*server, {"history", "job"});
    CHECK(contains(history.out, "; done this slot ("));
    history = run(*server, {"history", "--json", "job"});
    CHECK(contains(history.out, "\"event\":\"skip\""));
    CHECK(contains(history.out, "\"reason\":\"done this slot ("));
    CHECK(contains(history.out, "\"slot\":" + std::to_string(slot)));
}

TEST_CASE("once-per: a failed run leaves the slot open, strict closes it whatever the outcome",
          "[e2e][once-per]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    CHECK(run(*server, {"run", "--once-per", "1h", "job", "--", "false"}).exit_code == 1);
    CHECK(run(*server, {"run", "--once-per", "1h", "job", "--", "sh", "-c", "exit 7"}).exit_code ==
          7);
    CHECK_FALSE(server->cmd({"EXISTS", slot_key("job")}).integer());
    CHECK(run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "ok"}).exit_code ==
          0);
    CHECK(file_exists(dir / "ok"));

    CHECK(run(*server, {"run", "--once-per", "1h", "--once-per-strict", "other", "--", "false"})
              .exit_code == 1);
    CHECK(done_slot(*server, "other") >= 0);
    auto r = run(*server, {"-v", "run", "--once-per", "1h", "other", "--", "touch", dir / "no"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "done this slot"));
    CHECK_FALSE(file_exists(dir / "no"));
}

TEST_CASE("once-per: a run refused by the lock --min-hold keeps after the slot's run is done, "
          "not busy",
          "[e2e][once-per][min-hold]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::vector<std::string> both = {"--once-per", "1h", "--min-hold", "1h"};
    auto with = [&](std::vector<std::string> args) {
        const auto after_run = std::find(args.begin(), args.end(), "run") + 1;
        args.insert(after_run, both.begin(), both.end());
        return args;
    };
    CHECK(run(*server, with({"run", "job", "--", "true"})).exit_code == 0);
    CHECK(exists(*server, key("job"))); // kept by --min-hold
    auto r = run(*server, with({"-v", "run", "job", "--", "touch", dir / "second"}));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "dlock: job: done this slot ("));
    CHECK(run(*server, with({"run", "-E", "3", "job", "--", "touch", dir / "second"})).exit_code ==
          3);
    CHECK_FALSE(file_exists(dir / "second"));
    // A failed run leaves the slot open: the lock it leaves kept is busy.
    CHECK(run(*server, with({"run", "other", "--", "false"})).exit_code == 1);
    r = run(*server, with({"-v", "run", "other", "--", "touch", dir / "third"}));
    CHECK(r.exit_code == 75);
    CHECK(contains(r.err, "finished but held until"));
    CHECK_FALSE(file_exists(dir / "third"));
}

TEST_CASE("once-per: a run stopped by --max-run leaves the slot open", "[e2e][once-per][max-run]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r =
        run(*server, {"run", "--once-per", "1h", "--max-run", "1s", "job", "--", "sleep", "30"});
    CHECK(r.exit_code == 124);
    CHECK_FALSE(server->cmd({"EXISTS", slot_key("job")}).integer());
    CHECK(run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "ok"}).exit_code ==
          0);
    CHECK(file_exists(dir / "ok"));
}

TEST_CASE("once-per: a nested run of the same name re-enters and runs, even under strict",
          "[e2e][once-per][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string inner =
        "\"$DLOCK_BIN\" --redis \"$URL\" run --once-per 1h job -- touch \"$D/inner\"";
    auto r = run(*server, {"run", "--once-per", "1h", "--once-per-strict", "job", "-c", inner},
                 nested_env(*server, dir));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "inner"));
    CHECK(
        run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "again"}).exit_code ==
        0);
    CHECK_FALSE(file_exists(dir / "again"));
}

TEST_CASE("once-per: a waiter handed the lock after the slot was done skips",
          "[e2e][once-per][handoff]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job", {"--once-per", "1h"});
    auto waiter = start(*server, {"-v", "run", "--once-per", "1h", "-w", "60s", "job", "--",
                                  "touch", dir / "waiter"});
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        20s));
    let_go(dir, {holder.get()});
    auto w = waiter->wait(60s);
    INFO("waiter stderr: " << w.err);
    CHECK(w.exit_code == 0);
    CHECK(contains(w.err, "done this slot"));
    CHECK_FALSE(file_exists(dir / "waiter"));
    // It was handed the lock (a grant), not asked again: the history has the grant's acquire.
    auto history = run(*server, {"history", "--json", "job"});
    CHECK(lines_with(history.out, "\"event\":\"acquire\"").size() == 2);
    CHECK(lines_with(history.out, "\"event\":\"skip\"").size() == 1);
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("once-per: a run within the tolerance before a boundary counts toward the next slot",
          "[e2e][once-per][tolerance]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // 10 s slots, 4 s tolerance: a strict run acquired in the last 4 s of a slot marks the next.
    // The acquisition's server time is in the history; the assignment is checked against it, and
    // the attempt is repeated until one lands inside the window (the test may run slowly).
    bool early = false;
    for (int attempt = 0; attempt < 5 && !early; ++attempt) {
        const int64_t now = server_ms(*server);
        const int64_t boundary = (now / 10'000 + 1) * 10'000;
        if (boundary - now > 3'500)
            std::this_thread::sleep_for(milliseconds(boundary - 3'500 - now));
        else if (boundary - now < 1'000)
            std::this_thread::sleep_for(milliseconds(boundary + 6'500 - now));
        const std::string name = "t" + std::to_string(attempt);
        auto r = run(*server, {"run", "--once-per", "10s", "--tolerance", "4s", "--once-per-strict",
                               name, "--", "true"});
        REQUIRE(r.exit_code == 0);
        const int64_t at = acquired_at(*server, name);
        const int64_t slot = done_slot(*server, name);
        INFO("acquired at " << at << ", slot " << slot);
        CHECK(slot == (at + 4'000) / 10'000);
        if (at % 10'000 < 6'000)
            continue; // not in the window: try again
        early = true;
        CHECK(slot == at / 10'000 + 1);
        // After the boundary, the run of the new slot skips: the early run did it.
        const int64_t next_start = slot * 10'000;
        std::this_thread::sleep_for(
            milliseconds(std::max<int64_t>(0, next_start - server_ms(*server) + 200)));
        r = run(*server, {"-v", "run", "--once-per", "10s", "--tolerance", "4s", name, "--",
                          "touch", dir / "late"});
        CHECK(r.exit_code == 0);
        CHECK(contains(r.err, "done this slot"));
        CHECK_FALSE(file_exists(dir / "late"));
    }
    CHECK(early);
}

TEST_CASE("once-per: bad options are refused before anything is written",
          "[e2e][once-per][bad-input]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "--offset", "1h", "job", "--", "true"},
             {"run", "--tolerance", "1m", "job", "--", "true"},
             {"run", "--once-per-strict", "job", "--", "true"},
             {"run", "--once-per", "500ms", "job", "--", "true"},
             {"run", "--once-per", "0", "job", "--", "true"},
             {"run", "--once-per", "soon", "job", "--", "true"},
             {"run", "--once-per", "400d", "job", "--", "true"},
             {"run", "--once-per", "1h", "--offset", "1h", "job", "--", "true"},
             {"run", "--once-per", "1h", "--offset=-1h", "job", "--", "true"},
             {"run", "--once-per", "1h", "--offset", "x", "job", "--", "true"},
             {"run", "--once-per", "1h", "--tolerance", "30m1s", "job", "--", "true"},
             {"run", "--once-per", "1h", "job", "other", "--", "true"},
             {"run", "--once-per", "1h", "-s", "job", "--", "true"},
             {"sem", "run", "-p", "2", "--once-per", "1h", "job", "--", "true"},
         }) {
        auto r = run(*server, args);
        INFO(args[1] << " " << args[2] << " " << args[3] << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
    CHECK(dbsize(*server) == 0);
    // The edges that are fine.
    CHECK(run(*server, {"run", "--once-per", "1s", "--tolerance", "499ms", "a", "--", "true"})
              .exit_code == 0);
    CHECK(run(*server,
              {"run", "--once-per", "1h", "--offset=-59m", "--tolerance", "0", "b", "--", "true"})
              .exit_code == 0);
    CHECK(
        run(*server, {"run", "--once-per", "1d", "--offset", "2h", "c", "--", "true"}).exit_code ==
        0);
}

TEST_CASE("once-per is refused under Redlock, before any server is asked",
          "[e2e][once-per][redlock]") {
    REQUIRE_REDIS(a);
    REQUIRE_REDIS(b);
    REQUIRE_REDIS(c);
    auto r = run_raw({"--redis", a->url(), "--redis", b->url(), "--redis", c->url(), "run",
                      "--once-per", "1h", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 64);
    CHECK(contains(r.err, "--once-per is not available with several --redis"));
    CHECK(dbsize(*a) + dbsize(*b) + dbsize(*c) == 0);
}

TEST_CASE("once-per: runs nested in one long acquire hold run once per slot",
          "[e2e][once-per][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The hold's own acquisition is not the slot of a nested run: a run it already finished is.
    const std::string body = R"(out=$("$DLOCK_BIN" --redis "$URL" acquire job) || exit 9
eval "$out"
"$DLOCK_BIN" --redis "$URL" run --once-per 1h job -- touch "$D/first" || exit 8
"$DLOCK_BIN" --redis "$URL" run --once-per 1h job -- touch "$D/second" || exit 7
"$DLOCK_BIN" --redis "$URL" release
)";
    auto r = Process({"-c", body}, nested_env(*server, dir), "/bin/sh").wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "first"));
    CHECK_FALSE(file_exists(dir / "second"));
}

TEST_CASE("once-per: a mark ahead of the server's clock or unreadable does not count",
          "[e2e][once-per][hostile]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(run(*server, {"run", "--once-per", "1h", "job", "--", "true"}).exit_code == 0);
    const int64_t slot =
        std::stoll(std::string(server->cmd({"HGET", slot_key("job"), "slot"}).str()));
    const std::string bad = GENERATE_COPY(std::to_string(slot + 24), std::string("inf"),
                                          std::string("1e300"), std::string("0x7fffffff"));
    INFO("slot field " << bad);
    server->cmd({"HSET", slot_key("job"), "slot", bad});
    auto r = run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "ran"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
    CHECK(r.err.find("it does not count") != std::string::npos);
    CHECK(std::string(server->cmd({"HGET", slot_key("job"), "slot"}).str()) ==
          std::to_string(slot)); // replaced by this run's mark
}

TEST_CASE("once-per: a slot key that is not a hash is a clear error, and the lock is freed",
          "[e2e][once-per][hostile]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    server->cmd({"SET", slot_key("job"), "x"});
    auto r = run(*server, {"run", "--once-per", "1h", "job", "--", "touch", dir / "ran"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 70);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("holds a string, not dlock's slot mark") != std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK_FALSE(exists(*server, key("job")));
}
