// Signals and the command's processes: signals sent to dlock reach the command's group, a killed
// dlock takes its command along, and nothing of the command outlives dlock.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Runs until signalled; the trap records the signal and exits 42. The shell waits for a background
// sleep: `wait` is interrupted by a trapped signal at once (dlock clears up the sleep).
const std::string kTrapping = "trap 'echo TERM > \"$D/trapped\"; exit 42' TERM; "
                              "trap 'echo INT > \"$D/trapped\"; exit 42' INT; "
                              "trap 'echo HUP > \"$D/trapped\"; exit 42' HUP; "
                              "trap 'echo USR1 > \"$D/trapped\"; exit 42' USR1; "
                              "trap 'echo USR2 > \"$D/trapped\"; exit 42' USR2; "
                              "sleep 30 & echo $$ > \"$D/pid\"; wait";

// The command waits until its background process ignores TERM.
const std::string kAwaitBgReady = "while [ ! -e \"$D/bg-ready\" ]; do sleep 0.01; done";

} // namespace

TEST_CASE("signals sent to dlock are forwarded to the command", "[e2e][signals]") {
    REQUIRE_REDIS(server);
    auto [name, signo] = GENERATE(table<std::string, int>({
        {"TERM", SIGTERM},
        {"INT", SIGINT},
        {"HUP", SIGHUP},
        {"USR1", SIGUSR1},
        {"USR2", SIGUSR2},
    }));
    INFO("signal " << name);
    TempDir dir;
    auto dlock = start(*server, {"run", "job", "-c", kTrapping}, {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    REQUIRE(eventually([&] { return has_child_running(command, "sleep"); }));
    REQUIRE(exists(*server, key("job")));

    const auto sent = Clock::now();
    dlock->signal(signo);
    auto r = dlock->wait(10s);
    // The lock is gone the moment dlock has exited.
    CHECK_FALSE(exists(*server, key("job")));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 42);
    CHECK(trim(read_file(dir / "trapped")) == name);
    CHECK(since(sent) < 5s);
    CHECK(process_gone(command));
    CHECK(r.err.find("dlock:") == std::string::npos); // the shell may report the signal
    CHECK(dbsize(*server) == 3); // the fencing counter, the history, the run counters
}

TEST_CASE("a command killed by the forwarded signal gives 128+N", "[e2e][signals]") {
    REQUIRE_REDIS(server);
    auto signo = GENERATE(SIGTERM, SIGINT);
    TempDir dir;
    auto dlock = start(*server, {"run", "job", "-c", "echo $$ > \"$D/pid\"; sleep 30; true"},
                       {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    REQUIRE(eventually([&] { return has_child_running(command, "sleep"); }));
    dlock->signal(signo);
    auto r = dlock->wait(10s);
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(r.exit_code == 128 + signo);
}

TEST_CASE("a SIGKILLed dlock takes its command along and the lease expires after the TTL",
          "[e2e][signals]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server,
              {"run", "--ttl", "2s", "job", "-c",
               "echo $DLOCK_FENCING_TOKEN > \"$D/token\"; sleep 60 & echo $! > \"$D/child\"; "
               "echo $$ > \"$D/pid\"; wait"},
              {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    const pid_t grandchild = read_pid(dir / "child");
    const long long first_token = std::stoll(trim(read_file(dir / "token")));

    // Someone is already waiting when the holder dies.
    auto waiter = start(
        *server, {"run", "-w", "10s", "job", "-c", "echo $DLOCK_FENCING_TOKEN > \"$D/token2\""},
        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));

    const auto killed = Clock::now();
    holder->signal(SIGKILL);
    CHECK(holder->wait(5s).exit_code == 128 + SIGKILL);
    // Nobody released it: the lease is still there, and runs out by itself.
    CHECK(exists(*server, key("job")));
    CHECK(eventually([&] { return process_gone(command); }, 5s));

    auto r = waiter->wait(15s);
    INFO("waiter stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(since(killed) < 8s);
    const long long second_token = std::stoll(trim(read_file(dir / "token2")));
    CHECK(second_token > first_token);

    // The guardian killed the command's whole group, grandchildren included.
    CHECK(process_gone(grandchild));
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a SIGKILLed dlock takes every process of the command's group along at once",
          "[e2e][signals][guardian]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // As in the report: the shell waits for a background sleep, which PDEATHSIG never reached.
    const std::string command = "sleep 300 & echo $! > \"$D/child\"; echo $$ > \"$D/pid\"; wait";
    const bool whole_group = GENERATE(false, true);
    INFO((whole_group ? "kill -9 of dlock's process group" : "kill -9 of dlock"));
    // dlock in a process group of its own (as every Process is), as a job of a shell script.
    Process dlock(with_redis(*server, {"run", "--ttl", "2s", "job", "-c", command}),
                  clean_env({{"D", dir.path()}}));
    const pid_t shell = read_pid(dir / "pid");
    const pid_t sleeper = read_pid(dir / "child");
    REQUIRE(eventually([&] { return has_child_running(shell, "sleep"); }));

    const auto killed = Clock::now();
    kill(whole_group ? -dlock.pid() : dlock.pid(), SIGKILL);
    CHECK(dlock.wait(5s).exit_code == 128 + SIGKILL);
    CHECK(eventually([&] { return process_gone(sleeper) && process_gone(shell); }, 5s));
    // Well within the lease (2 s): the next holder never runs beside it.
    CHECK(since(killed) < 1s);
    CHECK(exists(*server, key("job")));
}

TEST_CASE("processes the command leaves in its group are gone before dlock exits",
          "[e2e][signals][group]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    SECTION("a background process that obeys TERM") {
        auto r = run(*server, {"run", "job", "-c", "sleep 60 & echo $! > \"$D/bg\"; exit 5"},
                     {{"D", dir.path()}}, 20s);
        const pid_t bg = read_pid(dir / "bg");
        CHECK(process_gone(bg));
        CHECK(r.exit_code == 5);
        CHECK(r.elapsed < 10s);
        CHECK_FALSE(exists(*server, key("job")));
    }
    SECTION("a background process that ignores TERM is killed after --kill-after") {
        // The subshell ignores TERM, and so does the sleep it becomes.
        auto r =
            run(*server,
                {"run", "-k", "1s", "job", "-c",
                 "(trap '' TERM; touch \"$D/bg-ready\"; exec sleep 60) & echo $! > \"$D/bg\"; " +
                     kAwaitBgReady + "; exit 6"},
                {{"D", dir.path()}}, 20s);
        const pid_t bg = read_pid(dir / "bg");
        CHECK(process_gone(bg));
        CHECK(r.exit_code == 6);
        CHECK(r.elapsed >= 900ms);
        CHECK(r.elapsed < 10s);
        CHECK_FALSE(exists(*server, key("job")));
    }
    SECTION("a grandchild whose parent exited (reparented to dlock)") {
        auto r =
            run(*server, {"run", "job", "-c", "sh -c 'sleep 60 & echo $! > \"$D/bg\"'; exit 0"},
                {{"D", dir.path()}}, 20s);
        const pid_t bg = read_pid(dir / "bg");
        CHECK(process_gone(bg));
        CHECK(r.exit_code == 0);
        CHECK(r.elapsed < 10s);
        CHECK_FALSE(exists(*server, key("job")));
    }
}

TEST_CASE("the lock is held until the group is gone", "[e2e][signals][group]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The background process ignores TERM and outlives the command by the grace of 2 s: the lock
    // must stay held for that time.
    auto holder =
        start(*server,
              {"run", "-k", "2s", "job", "-c",
               "(trap '' TERM; touch \"$D/bg-ready\"; exec sleep 60) & echo $! > \"$D/bg\"; " +
                   kAwaitBgReady + "; exit 0"},
              {{"D", dir.path()}});
    const pid_t bg = read_pid(dir / "bg");
    std::this_thread::sleep_for(500ms);
    if (holder->running()) {
        auto r = run(*server, {"run", "job", "--", "true"});
        CHECK(r.exit_code == 75);
    }
    CHECK(holder->wait(15s).exit_code == 0);
    CHECK(process_gone(bg));
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a dlock waiting for the lock can be interrupted", "[e2e][signals][wait]") {
    REQUIRE_REDIS(server);
    const int signo = GENERATE(SIGINT, SIGTERM);
    TempDir dir;
    auto holder = start(*server, {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    auto waiter = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));

    const auto sent = Clock::now();
    waiter->signal(signo);
    auto r = waiter->wait(10s);
    CHECK(since(sent) < 3s);
    CHECK(r.exit_code == 128 + signo);
    // The holder is not disturbed, and the command never runs.
    CHECK(holder->running());
    CHECK(hget(*server, key("job"), "pid") == std::to_string(holder->pid()));
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(file_exists(dir / "ran"));
}
