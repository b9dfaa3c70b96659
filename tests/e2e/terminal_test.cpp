// dlock at a terminal, driven through a pseudo-terminal as a user types: Ctrl-C in a shell loop
// stops the loop, Ctrl-Z stops dlock with its command and `fg` resumes both, and a skipped run
// says so at a terminal but not to cron.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"
#include "support/pty_session.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

Env terminal_env(const RedisServer& server, const TempDir& dir) {
    auto env = clean_env(nested_env(server, dir));
    env["PS1"] = "$ ";
    env["TERM"] = "dumb";
    return env;
}

pid_t holder_pid(const RedisServer& server, const std::string& name) {
    const auto pid = hget(server, key(name), "pid");
    return pid.empty() ? -1 : static_cast<pid_t>(std::stol(pid));
}

} // namespace

TEST_CASE("Ctrl-C in a shell loop stops the loop at the first press", "[e2e][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string loop =
        "for i in 1 2 3; do \"$DLOCK_BIN\" --redis \"$URL\" run ia -- sleep 30; "
        "echo \"after $i\" >> \"$D/log\"; done; echo finished >> \"$D/log\"";
    const bool interactive = GENERATE(true, false);
    INFO((interactive ? "typed at an interactive bash" : "a bash -c script at a terminal"));
    std::unique_ptr<PtySession> shell;
    if (interactive) {
        shell = std::make_unique<PtySession>(
            std::vector<std::string>{"/bin/bash", "--norc", "--noprofile", "-i"},
            terminal_env(*server, dir));
        REQUIRE(shell->await_output("$ "));
        shell->type(loop + "\n");
    } else {
        shell = std::make_unique<PtySession>(
            std::vector<std::string>{"/bin/bash", "--norc", "--noprofile", "-c", loop},
            terminal_env(*server, dir));
    }
    REQUIRE(eventually([&] { return exists(*server, key("ia")); }));
    const pid_t dlock = holder_pid(*server, "ia");
    REQUIRE(eventually([&] { return has_child_running(dlock, "sleep"); }));

    shell->type("\x03"); // Ctrl-C
    if (interactive) {   // the prompt is back at once, the rest of the line abandoned
        shell->type("echo back-$((40+2))\n");
        CHECK(shell->await_output("back-42"));
        shell->type("exit\n");
    }
    const int status = shell->wait(10s);
    INFO("terminal: " << shell->output() << "\nlog: " << read_file(dir / "log"));
    if (!interactive)
        CHECK(status == 128 + SIGINT);     // bash ends the script as its job died of SIGINT
    CHECK(read_file(dir / "log").empty()); // not even the rest of the first iteration
    CHECK_FALSE(exists(*server, key("ia")));
}

TEST_CASE("Ctrl-Z stops dlock with its command, fg resumes both", "[e2e][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    PtySession shell({"/bin/bash", "--norc", "--noprofile", "-i"}, terminal_env(*server, dir));
    REQUIRE(shell.await_output("$ "));
    shell.type("\"$DLOCK_BIN\" --redis \"$URL\" run --ttl 3s cz -c 'echo $$ > \"$D/pid\"; "
               "read line; echo \"got $line\" > \"$D/read\"'\n");
    const pid_t command = read_pid(dir / "pid");
    const pid_t dlock = holder_pid(*server, "cz");
    REQUIRE(dlock > 0);

    shell.type("\x1a"); // Ctrl-Z
    CHECK(eventually([&] { return process_state(dlock) == 'T' && process_state(command) == 'T'; }));
    CHECK(shell.await_output("Stopped"));
    // The shell has its prompt back: the job is stopped, not hanging.
    shell.type("echo prompt-$((20+22))\n");
    CHECK(shell.await_output("prompt-42"));

    shell.type("fg\n");
    CHECK(eventually([&] { return process_state(dlock) == 'S' && process_state(command) == 'S'; }));
    // The command has the terminal again: it reads the line typed.
    shell.type("hello\n");
    CHECK(wait_for_line(dir / "read") == "got hello");
    CHECK(eventually([&] { return !exists(*server, key("cz")); }));
    shell.type("echo status-$?\n");
    CHECK(shell.await_output("status-0"));
    shell.type("exit\n");
    shell.wait(10s);
}

TEST_CASE("a signal for a stopped command is followed by SIGCONT", "[e2e][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server,
                        {"run", "job", "-c",
                         "trap 'echo TERM > \"$D/trapped\"; exit 3' TERM; "
                         "echo $$ > \"$D/pid\"; while :; do sleep 0.05; done"},
                        {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    kill(command, SIGSTOP); // stopped by someone, not from a terminal: dlock keeps running
    REQUIRE(eventually([&] { return process_state(command) == 'T'; }));
    CHECK(holder->running());
    holder->signal(SIGTERM);
    auto r = holder->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 3);
    CHECK(trim(read_file(dir / "trapped")) == "TERM");
}

TEST_CASE("a skipped run is silent for cron and says why at a terminal", "[e2e][terminal][cron]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);

    SECTION("stderr is not a terminal: nothing, exit 75, the skip is in the history") {
        auto r = run(*server, {"run", "job", "--", "true"});
        CHECK(r.exit_code == 75);
        CHECK(r.err.empty());
        auto history = run(*server, {"history", "job", "--json"});
        CHECK(contains(history.out, "\"event\":\"skip\""));
    }
    SECTION("-v shows it") {
        auto r = run(*server, {"-v", "run", "job", "--", "true"});
        CHECK(r.exit_code == 75);
        CHECK(contains(r.err, "dlock: job is held by "));
    }
    SECTION("at a terminal it is one line") {
        PtySession dlock({dlock_binary(), "--redis", server->url(), "run", "job", "--", "true"},
                         clean_env());
        CHECK(dlock.wait(10s) == 75);
        CHECK(contains(dlock.output(), "dlock: job is held by "));
    }
    SECTION("a timed-out wait stays a warning") {
        auto r = run(*server, {"run", "-w", "300ms", "job", "--", "true"});
        CHECK(r.exit_code == 75);
        CHECK(contains(r.err, "dlock: timed out after 300ms waiting for job"));
    }
    let_go(dir, {holder.get()});
}
