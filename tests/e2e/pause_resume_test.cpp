// `dlock pause` / `dlock resume`: while a name is paused no run or acquire of it starts, whatever
// its wait, its waiters are told and exit, and a holder runs on undisturbed; every skip is in
// the history and counters; a pause ends by itself; bad input changes nothing.

#include "e2e/acquire_script.hpp"
#include "e2e/ops_helpers.hpp"
#include "e2e/redlock_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string counter(const RedisServer& server, const std::string& name, const std::string& field) {
    return std::string(server.cmd({"HGET", key(name, "runs"), field}).str());
}

} // namespace

TEST_CASE("a paused name skips every run whatever its wait, and resume lets it run again",
          "[e2e][pause]") {
    REQUIRE_REDIS(server);
    auto paused = run(*server, {"pause", "nightly", "--for", "2h", "--reason", "db migration"});
    INFO("stdout: " << paused.out << "stderr: " << paused.err);
    REQUIRE(paused.exit_code == 0);
    CHECK(paused.out.starts_with("paused nightly until "));
    CHECK(contains(paused.out, "(db migration)"));

    auto quiet = run(*server, {"run", "nightly", "--", "echo", "ran"});
    CHECK(quiet.exit_code == 75);
    CHECK(quiet.out.empty());
    CHECK(quiet.err.empty()); // silent in cron, like any skip

    auto told = run(*server, {"-v", "run", "-w", "10m", "nightly", "--", "echo", "ran"});
    INFO("stderr: " << told.err);
    CHECK(told.exit_code == 75);
    CHECK(told.out.empty());
    CHECK(contains(told.err, "nightly is paused by "));
    CHECK(contains(told.err, "@" + this_host() + " until "));
    CHECK(contains(told.err, "(db migration); not running echo ran"));
    CHECK(run(*server, {"run", "-E", "3", "nightly", "--", "true"}).exit_code == 3);

    CHECK(counter(*server, "nightly", "skipped_paused") == "3");
    CHECK(counter(*server, "nightly", "skipped_busy").empty());
    const auto history = run(*server, {"history", "nightly"});
    CHECK(lines_with(history.out, "@" + this_host() + " until ").size() == 3);
    CHECK(lines_with(history.out, " pause ").size() == 1);
    CHECK(contains(run(*server, {"metrics"}).out,
                   "dlock_runs_total{name=\"nightly\",outcome=\"skipped_paused\"} 3"));

    auto resumed = run(*server, {"resume", "nightly"});
    CHECK(resumed.exit_code == 0);
    CHECK(resumed.out.starts_with("resumed nightly (paused by "));
    auto ran = run(*server, {"run", "nightly", "--", "echo", "ran"});
    CHECK(ran.exit_code == 0);
    CHECK(ran.out == "ran\n");
    auto again = run(*server, {"resume", "nightly"});
    CHECK(again.exit_code == 1);
    CHECK(again.out == "nightly was not paused\n");
}

TEST_CASE("a pause leaves the holder running and sends its queued waiters away", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job");
    auto waiter = start(*server, {"run", "-w", "10m", "job", "--", "touch", dir.path() + "/ran"});
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        30s));

    auto paused = run(*server, {"pause", "job", "--for", "forever"});
    INFO("stdout: " << paused.out << "stderr: " << paused.err);
    CHECK(paused.exit_code == 0);
    CHECK(paused.out ==
          "paused job until dlock resume; 1 waiter told; its current holder runs on\n");
    CHECK(waiter->wait(60s).exit_code == 75);
    CHECK_FALSE(file_exists(dir.path() + "/ran"));

    let_go(dir, {holder.get()}); // exits 0: the pause did not disturb it
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 75);
    CHECK(run(*server, {"resume", "job"}).exit_code == 0);
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("a pause shows in status, status --all, check and metrics", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "nightly", "--", "true"}).exit_code == 0);
    REQUIRE(
        run(*server, {"pause", "nightly", "--for", "2h", "--reason", "db migration"}).exit_code ==
        0);

    const auto status = run(*server, {"status"}); // a paused name is listed, though free
    INFO("status: " << status.out);
    CHECK(contains(status.out, "nightly  lock  paused "));
    const auto wide = run(*server, {"status", "-l", "nightly"});
    CHECK(contains(wide.out, "paused by "));
    CHECK(contains(wide.out, "(db migration)"));
    const auto json = run(*server, {"status", "--json", "nightly"});
    CHECK(contains(json.out, R"("paused":{"by":")"));
    CHECK(contains(json.out, R"("reason":"db migration","since_ms":)"));
    const auto all = run(*server, {"status", "--all"});
    CHECK(contains(all.out, "nightly  lock  paused "));
    CHECK(contains(run(*server, {"status", "--all", "--json"}).out,
                   R"("state":"paused","paused":{)"));

    // Its last success is too old for --max-age 1ms, but a planned pause is no emergency.
    const auto check = run(*server, {"check", "nightly", "--max-age", "1ms"});
    INFO("check: " << check.out);
    CHECK(check.exit_code == 1);
    CHECK(check.out.starts_with("WARNING - nightly last "));
    CHECK(contains(check.out, "; paused by "));

    const auto metrics = run(*server, {"metrics"});
    CHECK(contains(metrics.out, "dlock_paused{name=\"nightly\"} 1\n"));
    REQUIRE(run(*server, {"resume", "nightly"}).exit_code == 0);
    CHECK(contains(run(*server, {"metrics"}).out, "dlock_paused{name=\"nightly\"} 0\n"));
    CHECK(run(*server, {"check", "nightly", "--max-age", "1ms"}).exit_code == 2);
}

TEST_CASE("dlock acquire of a paused name is refused, and no keeper is left", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(run(*server, {"pause", "job", "--for", "1h"}).exit_code == 0);
    auto shell =
        script(*server, dir, "out=$(\"$DLOCK\" acquire job); echo \"status $?\"; echo \"[$out]\"");
    auto r = shell->wait(60s);
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.out == "status 75\n[exit 75]\n"); // as for a busy name: eval ends the script
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a pause ends by itself at the end of --for", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"pause", "job", "--for", "1s"}).exit_code == 0);
    CHECK(eventually(
        [&] {
            return run(*server, {"run", "job", "--", "true"}).exit_code == 0;
        },
        30s, 100ms));
    CHECK_FALSE(exists(*server, key("job", "paused")));
}

TEST_CASE("pause and resume with bad input exit 64 and change nothing", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    const std::vector<std::vector<std::string>> bad{
        {"pause", "job"},
        {"pause", "job", "--for", "0"},
        {"pause", "job", "--for", "400d"},
        {"pause", "job", "--for", "soon"},
        {"pause", "job", "--until", "2001-01-01 10:00"},
        {"pause", "job", "--until", "teatime"},
        {"pause", "job", "--for", "1h", "--until", "23:00"},
        {"pause", "job", "--for", "1h", "--reason", "two\nlines"},
        {"pause", "job", "--for", "1h", "--reason", std::string(201, 'x')},
        {"pause", "bad{name}", "--for", "1h"},
        {"pause", "--for", "1h"},
        {"resume"},
        {"resume", "bad{name}"},
    };
    for (const auto& args : bad) {
        auto r = run(*server, args);
        INFO(args.back() << " -> " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_line(r.err));
        CHECK(dbsize(*server) == 0);
    }
}

TEST_CASE("under Redlock a pause holds on a majority, and one paused member refuses a run",
          "[e2e][pause][redlock]") {
    Members members;
    for (int i = 0; i < 3; ++i) {
        members.push_back(RedisServer::start());
        DLOCK_SKIP_UNLESS_STARTED(members.back(), "redis-server", "Redis");
    }
    members[2]->stop();
    auto paused = run_raw(on_members(members, {"pause", "job", "--for", "1h"}));
    INFO("stdout: " << paused.out << "stderr: " << paused.err);
    CHECK(paused.exit_code == 0);
    CHECK(lines_with(paused.out, ": paused job until ").size() == 2);
    CHECK(one_line(paused.err));
    CHECK(contains(paused.err, "could not pause job"));

    members[2] = RedisServer::start();
    REQUIRE(members[2]);
    CHECK(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 75);
    // Resumed on one member only: the other paused one still refuses.
    REQUIRE(members[0]->cmd({"DEL", key("job", "paused")}).integer() == 1);
    CHECK(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 75);
    auto resumed = run_raw(on_members(members, {"resume", "job"}));
    CHECK(resumed.exit_code == 1); // not paused on two of the members
    CHECK(lines_with(resumed.out, ": resumed job").size() == 1);
    CHECK(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 0);
}
