// `dlock status --watch` at a pseudo-terminal: frames redrawn in place as holders come and go,
// the last runs, Ctrl-C, Ctrl-Z and fg, a resize, Redis going away and coming back; refused
// outside a terminal and for a bad interval.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"
#include "support/pty_session.hpp"

#include <set>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

constexpr std::string_view kHome = "\x1b[H";
constexpr std::string_view kEraseBelow = "\x1b[J";
constexpr std::string_view kClear = "\x1b[2J";

// The frames drawn so far, whole ones only, as plain lines: what follows each cursor-home up to
// its erase-below, without the erase-line codes and carriage returns.
std::vector<std::string> frames(const std::string& output) {
    std::vector<std::string> found;
    for (size_t at = output.find(kHome); at != std::string::npos;) {
        const size_t start = at + kHome.size();
        const size_t end = output.find(kEraseBelow, start);
        if (end == std::string::npos)
            break;
        std::string frame;
        for (size_t i = start; i < end; ++i) {
            if (output.compare(i, 3, "\x1b[K") == 0)
                i += 2;
            else if (output[i] != '\r')
                frame += output[i];
        }
        found.push_back(frame);
        at = output.find(kHome, end);
    }
    return found;
}

std::string last_frame(PtySession& watch) {
    const auto all = frames(watch.output());
    return all.empty() ? "" : all.back();
}

size_t count_of(const std::string& text, std::string_view what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// The row of `name` in the status table of `frame` ("" when none): the first line that starts
// with it.
std::string row_of(const std::string& frame, const std::string& name) {
    for (const auto& line : lines(frame))
        if (line.rfind(name + " ", 0) == 0)
            return line;
    return "";
}

// Whether a line of `frame` starts with `name` and contains each of `words` (the last runs have
// a row of their own, below the status table's).
bool has_row(const std::string& frame, const std::string& name,
             const std::vector<std::string>& words) {
    for (const auto& line : lines(frame))
        if (line.rfind(name + " ", 0) == 0 &&
            std::all_of(words.begin(), words.end(),
                        [&](const std::string& w) { return contains(line, w); }))
            return true;
    return false;
}

std::vector<std::string> watch_argv(const RedisServer& server, std::vector<std::string> more) {
    std::vector<std::string> argv{dlock_binary(), "--redis", server.url(), "status", "--watch"};
    argv.insert(argv.end(), more.begin(), more.end());
    return argv;
}

bool frame_shows(PtySession& watch, const std::function<bool(const std::string&)>& test) {
    return eventually([&] { return test(last_frame(watch)); }, 20s);
}

} // namespace

TEST_CASE("status --watch redraws the holders in place until Ctrl-C, which exits 0",
          "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    TempDir dir, later;
    auto holder = start_holder(*server, dir, "job");
    PtySession watch(watch_argv(*server, {"200ms"}), clean_env());

    REQUIRE(frame_shows(watch, [](const std::string& f) {
        return contains(f, "every 200ms") && contains(f, "Ctrl-C to quit") &&
               contains(row_of(f, "job"), "exclusive");
    }));
    // Redrawn over and over (the TTL counts down, the server time moves on), the screen
    // cleared once only: each frame goes home and erases what the last one left.
    CHECK(eventually(
        [&] {
            std::set<std::string> distinct;
            for (const auto& f : frames(watch.output()))
                if (contains(row_of(f, "job"), "exclusive"))
                    distinct.insert(f);
            return distinct.size() >= 3;
        },
        20s));
    CHECK(count_of(watch.output(), kClear) == 1);

    let_go(dir, {holder.get()});
    auto next = start_holder(*server, later, "next");
    CHECK(frame_shows(watch, [](const std::string& f) {
        return contains(row_of(f, "next"), "exclusive") && !contains(row_of(f, "job"), "exclusive");
    }));
    let_go(later, {next.get()});

    watch.type("\x03"); // Ctrl-C
    CHECK(watch.wait(20s) == 0);
    // The prompt that follows starts on a line of its own, below the frame.
    const std::string& out = watch.output();
    const size_t last = out.rfind(kEraseBelow);
    REQUIRE(last != std::string::npos);
    CHECK(contains(out.substr(last), "\n"));
}

TEST_CASE("status --watch shows the last run of each name that ran", "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "good", "--", "true"}).exit_code == 0);
    PtySession watch(watch_argv(*server, {"200ms"}), clean_env());
    // A finished job's lock is free, but its last run is shown.
    REQUIRE(frame_shows(watch, [](const std::string& f) {
        return contains(f, "LAST RUN") && has_row(f, "good", {" ok ", "ok 1"});
    }));
    REQUIRE(run(*server, {"run", "bad", "--", "sh", "-c", "exit 3"}).exit_code == 3);
    CHECK(frame_shows(watch, [](const std::string& f) {
        return has_row(f, "bad", {" failed ", this_host(), " 3 ", " never ", "failed 1"});
    }));
    // A skipped run is counted, and the last run stays the one that ran.
    TempDir dir;
    auto holder = start_holder(*server, dir, "good");
    REQUIRE(run(*server, {"run", "good", "--", "true"}).exit_code == 75);
    CHECK(frame_shows(watch, [](const std::string& f) {
        return has_row(f, "good", {" ok ", "ok 1, skipped_busy 1"});
    }));
    INFO(last_frame(watch));
    watch.type("\x03");
    CHECK(watch.wait(20s) == 0);
    let_go(dir, {holder.get()});
}

TEST_CASE("status --watch redraws the whole screen after a resize and after a resume",
          "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    PtySession watch(watch_argv(*server, {"1h"}), clean_env());
    REQUIRE(watch.await_output("Ctrl-C to quit", 20s));
    CHECK(count_of(watch.output(), kClear) == 1);

    // A resize redraws at once, at the new width (the interval is an hour).
    watch.resize(40);
    CHECK(eventually([&] { return count_of(watch.output(), kClear) == 2; }, 20s));
    CHECK(frame_shows(watch, [](const std::string& f) {
        const auto all = lines(f);
        return !all.empty() && all.front().size() == 39 && all.front().ends_with("...") &&
               std::all_of(all.begin(), all.end(),
                           [](const std::string& line) { return line.size() <= 39; });
    }));

    kill(watch.pid(), SIGSTOP);
    REQUIRE(eventually([&] { return process_state(watch.pid()) == 'T'; }));
    kill(watch.pid(), SIGCONT);
    CHECK(eventually([&] { return count_of(watch.output(), kClear) == 3; }, 20s));

    kill(watch.pid(), SIGTERM);
    CHECK(watch.wait(20s) == 128 + SIGTERM);
}

TEST_CASE("status --watch fits a long table in the window's height", "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    for (int i = 10; i < 40; ++i)
        REQUIRE(run(*server, {"latch", "create", "l" + std::to_string(i), "1"}).exit_code == 0);
    PtySession watch(watch_argv(*server, {"1h"}), clean_env()); // 24 rows
    // The header, a blank line, the table's header and 20 of its rows, then how many more (10
    // rows, a blank line and the line about runs).
    CHECK(frame_shows(watch, [](const std::string& f) {
        const auto all = lines(f);
        return all.size() == 24 && all[23] == "... 12 more" && all[22].rfind("l29 ", 0) == 0;
    }));
    INFO(last_frame(watch));
    watch.type("\x03");
    CHECK(watch.wait(20s) == 0);
}

TEST_CASE("status --watch stopped by Ctrl-Z redraws after fg, and Ctrl-C gives the shell 0",
          "[e2e][status][watch][terminal]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto env = clean_env(nested_env(*server, dir));
    env["PS1"] = "$ ";
    env["TERM"] = "dumb";
    PtySession shell({"/bin/bash", "--norc", "--noprofile", "-i"}, env);
    REQUIRE(shell.await_output("$ "));
    shell.type("\"$DLOCK_BIN\" --redis \"$URL\" status --watch 300ms\n");
    REQUIRE(shell.await_output("Ctrl-C to quit", 20s));

    shell.type("\x1a"); // Ctrl-Z
    REQUIRE(shell.await_output("Stopped", 20s));
    const size_t cleared = count_of(shell.output(), kClear);
    shell.type("fg\n");
    CHECK(eventually([&] { return count_of(shell.output(), kClear) > cleared; }, 20s));

    shell.type("\x03"); // Ctrl-C
    shell.type("echo status-$?\n");
    CHECK(shell.await_output("status-0", 20s));
    shell.type("exit\n");
    shell.wait(10s);
}

TEST_CASE("status --watch keeps going while Redis is down, shows why, and recovers",
          "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job");
    PtySession watch(watch_argv(*server, {"200ms"}), clean_env());
    REQUIRE(frame_shows(
        watch, [](const std::string& f) { return contains(row_of(f, "job"), "exclusive"); }));

    server->stop();
    // The error on top with its time, the last reading below it, marked stale.
    CHECK(frame_shows(watch, [](const std::string& f) {
        const auto all = lines(f);
        return all.size() > 2 && contains(all[0], "retrying every 200ms") &&
               contains(all[1], "(stale)") && contains(row_of(f, "job"), "exclusive");
    }));
    CHECK(process_state(watch.pid()) != 0);
    CHECK(watch.wait(1s) == -1); // still running

    server->restart(); // empty: the holder's lease is gone with the old data set
    CHECK(frame_shows(watch, [](const std::string& f) {
        return contains(f, "Ctrl-C to quit") && !contains(f, "stale") && !contains(f, "retrying");
    }));
    watch.type("\x03");
    CHECK(watch.wait(20s) == 0);
    holder->signal(SIGTERM);
    holder->wait(20s);
}

TEST_CASE("status --watch: Redis unreachable at the start is the usual error, exit 69",
          "[e2e][status][watch]") {
    TempDir dir;
    PtySession watch({dlock_binary(), "--redis", "unix://" + (dir / "none.sock"),
                      "--connect-timeout", "1s", "status", "--watch"},
                     clean_env());
    CHECK(watch.wait(20s) == 69);
    const std::string out = watch.output();
    INFO(out);
    CHECK(contains(out, "dlock: cannot reach Redis"));
    CHECK(count_of(out, kClear) == 0); // nothing drawn
}

TEST_CASE("status --watch refuses to run outside a terminal and a bad interval, exit 64",
          "[e2e][status][watch][bad-input]") {
    REQUIRE_REDIS(server);
    const int64_t connections = connections_received(*server);
    auto r = run(*server, {"status", "--watch"});
    CHECK(r.exit_code == 64);
    CHECK(r.out.empty());
    CHECK(r.err == "dlock: status --watch needs a terminal (stdout is not one); use dlock status, "
                   "or dlock metrics for monitoring\n");

    for (const std::string interval : {"50ms", "2h", "0", "1x", "1.5.s"}) {
        INFO(interval);
        r = run(*server, {"status", "--watch", interval});
        CHECK(r.exit_code == 64);
        CHECK(contains(r.err, "dlock: --watch " + interval + ": "));
        CHECK(one_line(r.err));
    }
    for (const std::string other : {"--json", "--names"}) {
        r = run(*server, {"status", "--watch", other});
        CHECK(r.exit_code == 64);
        CHECK(one_line(r.err));
    }
    // Nothing was sent: the only new connection is the one counting them.
    CHECK(connections_received(*server) == connections + 1);
}

TEST_CASE("status --watch NAME: a word after --watch that is no interval is a NAME",
          "[e2e][status][watch]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job");
    auto other = start_holder(*server, dir, "other");
    const bool before = GENERATE(true, false);
    PtySession watch(before
                         ? watch_argv(*server, {"job", "other-free"})
                         : std::vector<std::string>{dlock_binary(), "--redis", server->url(),
                                                    "status", "job", "--watch", "2s", "other-free"},
                     clean_env());
    REQUIRE(frame_shows(watch, [](const std::string& f) {
        return contains(row_of(f, "job"), "exclusive") && contains(row_of(f, "other-free"), "free");
    }));
    CHECK(row_of(last_frame(watch), "other").empty());
    CHECK(contains(last_frame(watch), before ? "every 1s" : "every 2s"));
    watch.type("\x03");
    CHECK(watch.wait(20s) == 0);
    let_go(dir, {holder.get(), other.get()});
}
