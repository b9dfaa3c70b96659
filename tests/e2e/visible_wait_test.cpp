// A wait of `run -w` is visible: at a terminal, one line saying what it waits for, with the
// elapsed time rewritten in place and the line ended when the wait ends; to cron (no terminal)
// nothing at the default level, and at -v a line when the wait starts and one when it ends.

#include "e2e/e2e_helpers.hpp"
#include "support/pty_session.hpp"

#include <algorithm>
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

namespace {

// What each in-place draw wrote: the text between a "\r" and the next "\r" or end of line.
std::vector<std::string> drawn_lines(const std::string& output) {
    std::vector<std::string> drawn;
    for (size_t at = output.find("\rdlock: "); at != std::string::npos;
         at = output.find("\rdlock: ", at + 1))
        drawn.push_back(output.substr(at + 1, output.find_first_of("\r\n", at + 1) - at - 1));
    return drawn;
}

size_t visible_length(const std::string& text) {
    return static_cast<size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

} // namespace

TEST_CASE("at a terminal the waiting line fits the window, with one ellipsis",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    const unsigned short columns = GENERATE(40, 50, 70);
    INFO("columns: " << columns);
    PtySession dlock(waiting_run(*server, {}), clean_env(), columns);
    CHECK(dlock.await_output("... 2s", 30s));
    let_go(dir, {holder.get()});
    CHECK(dlock.wait(30s) == 0);
    INFO("terminal: " << dlock.output());
    const auto drawn = drawn_lines(dlock.output());
    REQUIRE(drawn.size() >= 3);
    for (const auto& line : drawn) {
        INFO("line: " << line);
        CHECK(visible_length(line) <= columns - 1u);
        CHECK(line.find("......") == std::string::npos);
        CHECK(std::regex_search(line, std::regex(R"(^dlock: waiting for j.*\.\.\. \d+s *$)")));
    }
    CHECK(dlock.output().find("\r\n") == dlock.output().size() - 2); // one row, ended once
}

TEST_CASE("at a terminal too narrow the wait is not drawn until the window widens",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    PtySession dlock(waiting_run(*server, {}), clean_env(), 30);
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        20s));
    std::this_thread::sleep_for(2500ms); // time for updates that must not come
    CHECK(dlock.output().empty());
    dlock.resize(60);
    CHECK(dlock.await_output("\rdlock: waiting for job: ", 30s));
    let_go(dir, {holder.get()});
    CHECK(dlock.wait(30s) == 0);
    INFO("terminal: " << dlock.output());
    for (const auto& line : drawn_lines(dlock.output()))
        CHECK(visible_length(line) <= 59);
    CHECK(ends_cleanly(dlock.output()));
}

TEST_CASE("a wait in the background does not write over the prompt", "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    // A shell with job control, as at a prompt: `&` puts dlock in a process group of its own,
    // which is not the terminal's foreground group.
    std::vector<std::string> argv{"/bin/bash", "-m", "-c", "\"$@\" & wait $!", "sh"};
    const auto run = waiting_run(*server, {});
    argv.insert(argv.end(), run.begin(), run.end());
    PtySession shell(argv, clean_env());
    REQUIRE(eventually(
        [&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1;
        },
        20s));
    std::this_thread::sleep_for(2500ms); // time for updates that must not come
    let_go(dir, {holder.get()});
    CHECK(shell.wait(30s) == 0);
    INFO("terminal: " << shell.output());
    CHECK(shell.output().find("waiting for") == std::string::npos);
}

TEST_CASE("at a terminal -v logs the wait in two lines instead of drawing it",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    PtySession dlock(waiting_run(*server, {"-v"}), clean_env());
    CHECK(dlock.await_output("dlock: waiting for job: held by "));
    std::this_thread::sleep_for(1500ms); // time for an update that must not come
    let_go(dir, {holder.get()});
    CHECK(dlock.wait(30s) == 0);
    INFO("terminal: " << dlock.output());
    CHECK(dlock.output().find("\rdlock") == std::string::npos);
    CHECK(dlock.output().find("... ") == std::string::npos);
    CHECK(std::regex_search(dlock.output(),
                            std::regex(R"(\r\ndlock: waited \S+ for job: acquired\r\n)")));
}

TEST_CASE("at a terminal the waiting line follows a change of the holder's state",
          "[e2e][wait][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job", {"--min-hold", "4s"});
    PtySession dlock(waiting_run(*server, {}), clean_env());
    CHECK(dlock.await_output("\rdlock: waiting for job: held by "));
    CHECK(dlock.await_output("... 1s", 30s));
    let_go(dir, {holder.get()});
    CHECK(dlock.await_output("held until", 30s));
    CHECK(dlock.wait(30s) == 0);
    INFO("terminal: " << dlock.output());
    const auto drawn = drawn_lines(dlock.output());
    REQUIRE(!drawn.empty());
    CHECK(drawn.back().find("finished but held until") != std::string::npos);
    // A shorter line is padded over the longer one before it: nothing is left over.
    for (size_t i = 1; i < drawn.size(); ++i)
        CHECK(visible_length(drawn[i]) >= visible_length(drawn[i - 1]));
    CHECK(ends_cleanly(dlock.output()));
}
