// --max-run: a command that runs too long is stopped (the --lost-signal, then SIGKILL after
// --kill-after), dlock exits 124 as timeout(1) does, the history says why, and the name is free.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The events of `name`'s history, newest first.
std::vector<std::string> events(const RedisServer& server, const std::string& name) {
    auto r = run(server, {"history", name, "--json"});
    std::vector<std::string> out;
    for (const auto& line : lines(r.out)) {
        const auto at = line.find("\"event\":\"");
        if (at != std::string::npos)
            out.push_back(line.substr(at + 9, line.find('"', at + 9) - at - 9));
    }
    return out;
}

// Runs `script` under `--max-run 1s -k 1s`: its time up, dlock stops it, SIGKILLs what ignores
// the signal, exits 124 with one line, and the name is free.
ProcessResult killed_after_max_run(const RedisServer& server, const std::string& script) {
    auto r = run(server, {"run", "--max-run", "1s", "-k", "1s", "job", "--", "sh", "-c", script});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 124);
    CHECK(r.elapsed < 30s);
    CHECK(one_dlock_line(r.err));
    CHECK_FALSE(exists(server, key("job")));
    return r;
}

} // namespace

TEST_CASE("a command that runs past --max-run is stopped and dlock exits 124", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "--max-run", "1s", "job", "--", "sleep", "60"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 124);
    CHECK(r.elapsed < 30s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("ran longer than --max-run 1s") != std::string::npos);
    CHECK(r.err.find("SIGTERM") != std::string::npos);
    CHECK_FALSE(exists(*server, key("job")));
    // Recorded: the stop, then the release with 124.
    const auto seen = events(*server, "job");
    REQUIRE(seen.size() >= 3);
    CHECK(seen[0] == "release");
    CHECK(seen[1] == "timeout");
    CHECK(seen[2] == "acquire");
    auto shown = run(*server, {"history", "job"});
    CHECK(shown.out.find("stopped: ran longer than --max-run 1s") != std::string::npos);
    CHECK(run(*server, {"history", "job", "--json"}).out.find("\"exit_status\":124") !=
          std::string::npos);
}

TEST_CASE("a command that ignores the stop signal is killed after --kill-after", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    auto r = killed_after_max_run(*server, "trap '' TERM; sleep 60 & wait; sleep 60");
    INFO("stderr: " << r.err);
    CHECK(r.err.find("then killed 1s later") != std::string::npos);
}

TEST_CASE("a process the command left that ignores the stop signal is killed, and the line says "
          "so",
          "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    // The command itself dies of SIGTERM; what it started in the background does not.
    auto r = killed_after_max_run(*server, "(trap '' TERM; exec sleep 60) & sleep 60");
    INFO("stderr: " << r.err);
    CHECK(r.err.find("it was stopped with SIGTERM, then killed 1s later") != std::string::npos);
}

TEST_CASE("a run past --max-run stops the command's whole group with --lost-signal",
          "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string got = dir / "got";
    const std::string child = dir / "child";
    // The command exits 0 on USR1: still 124, as with timeout(1), since its time was up.
    auto r =
        run(*server, {"run", "--max-run", "1s", "--lost-signal", "USR1", "job", "--", "sh", "-c",
                      "sleep 60 & echo $! > " + child + "; trap 'echo usr1 > " + got +
                          "; exit 0' USR1; while :; do sleep 0.1; done"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 124);
    CHECK(r.err.find("SIGUSR1") != std::string::npos);
    CHECK(wait_for_line(got) == "usr1");
    // Nothing of the command's group outlives the run.
    const pid_t background = read_pid(child);
    CHECK(process_gone(background));
}

TEST_CASE("a command that ends before --max-run keeps its own status", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "--max-run", "1h", "job", "--", "sh", "-c", "exit 3"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.empty());
    for (const auto& e : events(*server, "job"))
        CHECK(e != "timeout");
}

TEST_CASE("sem run takes --max-run too", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    auto r =
        run(*server, {"sem", "run", "-p", "2", "--max-run", "1s", "pool", "--", "sleep", "60"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 124);
    CHECK(r.elapsed < 30s);
    CHECK(run(*server, {"sem", "status", "pool"}).exit_code == 1); // no permit left held
}

TEST_CASE("a bad --max-run is a usage error and changes nothing in Redis", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    const std::string value = GENERATE("0", "0s", "-1s", "soon", "", "101y", "200000d");
    INFO("--max-run '" << value << "'");
    auto r = run(*server, {"run", "--max-run", value, "job", "--", "true"});
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("--max-run") != std::string::npos);
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("a lease lost after --max-run's stop still ends in 76", "[e2e][max-run]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string started = dir / "started";
    // The command ignores the stop signal, so it is still running (until --kill-after) when the
    // lock is broken under it: whichever dlock sees first, the loss or the end, 76 wins.
    auto holder = start(
        *server, {"run", "--ttl", "15s", "--max-run", "1s", "-k", "5s", "job", "--", "sh", "-c",
                  "trap '' TERM; echo up > " + started + "; sleep 60 & wait; sleep 60"});
    REQUIRE(wait_for_line(started) == "up");
    std::this_thread::sleep_for(1500ms); // past --max-run: the stop signal was sent
    REQUIRE(run(*server, {"release", "--force", "job"}).exit_code == 0);
    auto r = holder->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(r.err.find("lost the lease on job") != std::string::npos);
}
