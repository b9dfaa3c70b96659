// A lease lost while the command runs (deleted, taken over, or not renewable): the command is
// stopped with --lost-signal, SIGKILLed after --kill-after, and dlock exits 76.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Records the first signal it gets among TERM, HUP, USR1 and INT, then exits 0 (dlock must still
// report 76).
const std::string kRecordsSignal = "for s in TERM HUP USR1 INT; do "
                                   "trap \"echo $s > \\\"\\$D/lost\\\"; exit 0\" $s; done; "
                                   "sleep 60 & echo $$ > \"$D/pid\"; wait";

void steal(const RedisServer& server, const std::string& how) {
    if (how == "DEL")
        server.cmd({"DEL", key("job")});
    else
        server.cmd({"HSET", key("job"), "owner", "0123456789abcdef0123456789abcdef"});
}

} // namespace

TEST_CASE("a lease deleted or taken over while running stops the command with 76", "[e2e][lost]") {
    REQUIRE_REDIS(server);
    const std::string how = GENERATE(as<std::string>(), "DEL", "HSET");
    INFO("lease stolen with " << how);
    TempDir dir;
    auto dlock =
        start(*server, {"run", "--ttl", "3s", "job", "-c", kRecordsSignal}, {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");

    const auto stolen = Clock::now();
    steal(*server, how);
    auto r = dlock->wait(15s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    // Noticed at the next renewal (every TTL/3 = 1 s).
    CHECK(since(stolen) < 6s);
    CHECK(trim(read_file(dir / "lost")) == "TERM");
    CHECK(process_gone(command));
    CHECK(r.err.find("dlock: lost the lease on job") != std::string::npos);
    if (how == "HSET") {
        // The new owner's lease is left alone.
        CHECK(hget(*server, key("job"), "owner") == "0123456789abcdef0123456789abcdef");
    } else {
        CHECK_FALSE(exists(*server, key("job")));
    }
}

TEST_CASE("the stop signal is chosen with --lost-signal", "[e2e][lost]") {
    REQUIRE_REDIS(server);
    auto [option, expected] = GENERATE(table<std::string, std::string>({
        {"USR1", "USR1"},
        {"SIGHUP", "HUP"},
        {"int", "INT"},
        {std::to_string(SIGUSR1), "USR1"},
    }));
    INFO("--lost-signal " << option);
    TempDir dir;
    auto dlock =
        start(*server, {"run", "--ttl", "3s", "--lost-signal", option, "job", "-c", kRecordsSignal},
              {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    steal(*server, "DEL");
    auto r = dlock->wait(15s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(trim(read_file(dir / "lost")) == expected);
    CHECK(process_gone(command));
}

TEST_CASE("a command that ignores the stop signal is SIGKILLed after --kill-after", "[e2e][lost]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    SECTION("it notices the signal but keeps running") {
        // The trap records the TERM and carries on; only SIGKILL ends it, 2 s later.
        auto dlock = start(*server,
                           {"run", "--ttl", "6s", "-k", "2s", "job", "-c",
                            "trap 'echo got >> \"$D/term\"' TERM; echo $$ > \"$D/pid\"; "
                            "while :; do sleep 0.05; done"},
                           {{"D", dir.path()}});
        const pid_t command = read_pid(dir / "pid");
        steal(*server, "DEL");
        REQUIRE(eventually([&] { return file_exists(dir / "term"); }, 10s));
        const auto signalled = Clock::now();
        auto r = dlock->wait(15s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 76);
        CHECK(since(signalled) >= 1500ms);
        CHECK(since(signalled) < 7s);
        CHECK(process_gone(command));
    }
    SECTION("it ignores TERM altogether") {
        auto dlock = start(*server,
                           {"run", "--ttl", "3s", "--kill-after", "1s", "job", "-c",
                            "trap '' TERM; echo $$ > \"$D/pid\"; sleep 60; true"},
                           {{"D", dir.path()}});
        const pid_t command = read_pid(dir / "pid");
        const auto stolen = Clock::now();
        steal(*server, "DEL");
        auto r = dlock->wait(15s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 76);
        // At most one renewal period (1 s) to notice, then the 1 s grace.
        CHECK(since(stolen) >= 900ms);
        CHECK(since(stolen) < 7s);
        CHECK(process_gone(command));
    }
    SECTION("--lost-signal KILL needs no grace") {
        auto dlock = start(*server,
                           {"run", "--ttl", "3s", "--lost-signal", "KILL", "job", "-c",
                            "trap '' TERM; echo $$ > \"$D/pid\"; sleep 60; true"},
                           {{"D", dir.path()}});
        const pid_t command = read_pid(dir / "pid");
        steal(*server, "DEL");
        auto r = dlock->wait(15s);
        CHECK(r.exit_code == 76);
        CHECK(process_gone(command));
    }
}

TEST_CASE("when Redis goes away the command is stopped before the lease could expire",
          "[e2e][lost]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto dlock =
        start(*server, {"run", "--ttl", "3s", "job", "-c", kRecordsSignal}, {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");

    const auto stopped = Clock::now();
    server->stop();
    auto r = dlock->wait(15s);
    const auto took = since(stopped);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(trim(read_file(dir / "lost")) == "TERM");
    CHECK(process_gone(command));
    CHECK(r.err.find("could not renew the lease on job") != std::string::npos);
    // The last renewal was at most 1 s before the stop; the lease was guaranteed for 3 s after
    // it, and dlock stops the command margin + grace (0.3 s + 0.5 s) before that.
    CHECK(took >= 1s);
    CHECK(took < 6s);
}

TEST_CASE("a lease that is renewed outlives its TTL", "[e2e][lost]") {
    REQUIRE_REDIS(server);
    // 3.5 s of work under a 1 s lease: only the watchdog's renewals keep it.
    auto r = run(*server, {"run", "--ttl", "1s", "job", "-c", "sleep 3.5"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a Redis restarted empty under a running command: the holder exits 76, recorded lost",
          "[e2e][lost][restart]") {
    // The first release after the restart gets no reply (its connection died with the server);
    // its retry finds no lease and no receipt of an earlier release: the lease vanished while
    // its guarantee still ran, and a second holder ran meanwhile.
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server, {"run", "--ttl", "9s", "r", "-c", "echo $$ > \"$D/pid\"; " + kAwaitGo},
              {{"D", dir.path()}});
    read_pid(dir / "pid");
    REQUIRE(exists(*server, key("r")));

    server->restart();
    auto second = run(*server, {"run", "r", "--", "true"});
    INFO("second stderr: " << second.err);
    CHECK(second.exit_code == 0);

    touch(dir / "go");
    auto r = holder->wait(30s);
    INFO("holder stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(r.err.find("dlock: lost the lease on r while the command ran: it vanished from Redis") !=
          std::string::npos);
    auto history = run(*server, {"history", "r", "--json"});
    INFO("history: " << history.out);
    CHECK(history.out.find("\"event\":\"lost\"") != std::string::npos);
}
