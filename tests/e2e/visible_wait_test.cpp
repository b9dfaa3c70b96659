// A wait of `run -w` is visible: at a terminal, one line saying what it waits for, with the
// elapsed time rewritten in place and the line ended when the wait ends; to cron (no terminal)
// nothing at the default level, and at -v a line when the wait starts and one when it ends.

#include "e2e/e2e_helpers.hpp"
#include "support/pty_session.hpp"

#include <regex>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::vector<std::string> waiting_run(const RedisServer& server, std::vector<std::string> before,
                                     const std::string& command = "true") {
    std::vector<std::string> argv{dlock_binary(), "--redis", server.url()};
    argv.insert(argv.end(), before.begin(), before.end());
    argv.insert(argv.end(), {"run", "-w", "60s", "job", "--", command});
    return argv;
}

// The terminal output after the last in-place update ends the line: "... 3s\r\n".
bool ends_cleanly(const std::string& output) {
    const auto last = output.rfind("\rdlock: waiting for job: ");
    if (last == std::string::npos)
        return false;
    static const std::regex finished(R"(^\rdlock: waiting for job: [^\r\n]*\.\.\. \d+s\r\n)");
    return std::regex_search(output.substr(last), finished);
}

} // namespace

TEST_CASE("at a terminal a wait shows what it waits for and the time it has waited",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    PtySession dlock(waiting_run(*server, {}, "true"), clean_env());
    CHECK(dlock.await_output("dlock: waiting for job: held by "));
    CHECK(dlock.await_output("(pid " + std::to_string(holder->pid())));
    // The elapsed time is rewritten in place, from the start of the line.
    CHECK(dlock.await_output("... 1s", 30s));
    CHECK(dlock.output().find("\rdlock: waiting for job: held by ") != std::string::npos);
    let_go(dir, {holder.get()});
    CHECK(dlock.wait(30s) == 0);
    INFO("terminal: " << dlock.output());
    CHECK(ends_cleanly(dlock.output()));
    // One line of its own: no other message followed on it.
    CHECK(dlock.output().find("waiting for job", dlock.output().find("\r\n")) == std::string::npos);
}

TEST_CASE("at a terminal a timed-out wait ends its line before the timeout message",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    std::vector<std::string> argv{dlock_binary(), "--redis", server->url(), "run", "-w",
                                  "1500ms",       "job",     "--",          "true"};
    PtySession dlock(argv, clean_env());
    CHECK(dlock.wait(30s) == 75);
    INFO("terminal: " << dlock.output());
    CHECK(ends_cleanly(dlock.output()));
    CHECK(dlock.output().find("\r\ndlock: timed out after 1.5s waiting for job, held by ") !=
          std::string::npos);
    let_go(dir, {holder.get()});
}

TEST_CASE("Ctrl-C during a wait at a terminal ends the line and dies of SIGINT",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    PtySession dlock(waiting_run(*server, {}), clean_env());
    REQUIRE(dlock.await_output("dlock: waiting for job: "));
    dlock.type("\x03");
    CHECK(dlock.wait(30s) == 128 + SIGINT);
    INFO("terminal: " << dlock.output());
    CHECK(dlock.output().find("... ") != std::string::npos);
    CHECK(dlock.output().ends_with("\r\n"));
    CHECK(server->cmd({"ZCARD", key("job", "queue")}).integer() == 0);
    let_go(dir, {holder.get()});
}

TEST_CASE("at a terminal -q shows no wait", "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    PtySession dlock(waiting_run(*server, {"-q"}), clean_env());
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        20s));
    std::this_thread::sleep_for(1500ms); // time for an update that must not come
    let_go(dir, {holder.get()});
    CHECK(dlock.wait(30s) == 0);
    CHECK(dlock.output().empty());
}

TEST_CASE("without a terminal a wait is silent, and two log lines at -v", "[e2e][wait][log]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    const bool verbose = GENERATE(false, true);
    INFO((verbose ? "-v" : "default level"));
    std::vector<std::string> args{"run", "-w", "60s", "job", "--", "true"};
    if (verbose)
        args.insert(args.begin(), "-v");
    auto waiter = start(*server, args);
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        20s));
    std::this_thread::sleep_for(1200ms); // a terminal would have had an update by now
    let_go(dir, {holder.get()});
    auto r = waiter->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    if (!verbose) {
        CHECK(r.err.empty());
        return;
    }
    CHECK(r.err.find('\r') == std::string::npos);
    std::vector<std::string> wait_lines;
    for (const auto& line : lines(r.err))
        if (line.find("wait") != std::string::npos)
            wait_lines.push_back(line);
    REQUIRE(wait_lines.size() == 2);
    CHECK(wait_lines[0].starts_with("dlock: waiting for job: held by "));
    CHECK(std::regex_match(wait_lines[1], std::regex(R"(dlock: waited \S+ for job: acquired)")));
}

TEST_CASE("without a terminal a wait that times out logs that it gave up at -v",
          "[e2e][wait][log]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    auto r = run(*server, {"-v", "run", "-w", "500ms", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    const auto all = lines(r.err);
    REQUIRE(all.size() == 3);
    CHECK(all[0].starts_with("dlock: waiting for job: held by "));
    CHECK(std::regex_match(all[1], std::regex(R"(dlock: waited \S+ for job: gave up)")));
    CHECK(all[2].starts_with("dlock: timed out after 500ms waiting for job"));
    let_go(dir, {holder.get()});
}
