// Write errors on stdout: a full disk is one line on stderr and exit 70; a reader that went
// away (`dlock status | head -1`) ends dlock quietly by SIGPIPE, as it ends other tools. Never
// an abort, never a silent exit 0.

#include "e2e/ops_helpers.hpp"

#include <fcntl.h>
#include <fmt/format.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

const std::string kDiskFull = "dlock: cannot write to stdout: No space left on device\n";

// `dlock --redis <server> ARGS > /dev/full`
ProcessResult run_into_full_disk(const RedisServer& server, std::vector<std::string> args) {
    args = with_redis(server, std::move(args));
    args.insert(args.begin(), {"-c", "exec \"$DLOCK_BIN\" \"$@\" > /dev/full", "sh"});
    Process p(args, clean_env({{"DLOCK_BIN", dlock_binary()}}), "/bin/sh");
    return p.wait(30s);
}

// `dlock --redis <server> ARGS` with stdout on a pipe whose reader has already gone: every
// write fails with EPIPE (SIGPIPE is ignored in dlock, for its Redis socket).
ProcessResult run_into_closed_pipe(const RedisServer& server, std::vector<std::string> args) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    close(fds[0]);
    // The shell moves fd 9 to stdout; fd 9 of this process is put back as it was afterwards.
    const int saved = fcntl(9, F_DUPFD_CLOEXEC, 10);
    REQUIRE(dup2(fds[1], 9) == 9);
    close(fds[1]);
    args = with_redis(server, std::move(args));
    args.insert(args.begin(), {"-c", "exec \"$DLOCK_BIN\" \"$@\" >&9 9>&-", "sh"});
    auto p = std::make_unique<Process>(args, clean_env({{"DLOCK_BIN", dlock_binary()}}), "/bin/sh");
    if (saved >= 0) {
        dup2(saved, 9);
        close(saved);
    } else {
        close(9);
    }
    return p->wait(30s);
}

void check_disk_full(const RedisServer& server, const std::vector<std::string>& args) {
    auto r = run_into_full_disk(server, args);
    INFO("dlock " << args[0] << (args.size() > 1 ? " " + args[1] : "") << "; stderr: " << r.err);
    CHECK(r.exit_code == 70);
    CHECK(r.err == kDiskFull);
}

void check_closed_pipe(const RedisServer& server, const std::vector<std::string>& args) {
    auto r = run_into_closed_pipe(server, args);
    INFO("dlock " << args[0] << (args.size() > 1 ? " " + args[1] : "") << "; stderr: " << r.err);
    CHECK(r.exit_code == 128 + SIGPIPE);
    CHECK(r.err.empty());
}

// Names lock-00 ... lock-(n-1), held by one `dlock run` until $D/go exists. Its command line
// is long, and so is each row of `status`: 300 locks make more than a pipe holds (64 KiB).
std::unique_ptr<Process> hold_many(const RedisServer& server, const TempDir& dir, int n) {
    std::vector<std::string> args{"run"};
    for (int i = 0; i < n; ++i)
        args.push_back(fmt::format("lock-{:02}", i));
    args.insert(args.end(),
                {"-c", "touch \"$D/held\"; " + kAwaitGo + " # " + std::string(400, 'x')});
    auto holder = start(server, args, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 20s));
    return holder;
}

} // namespace

TEST_CASE("status, history and config on a full disk: one line and exit 70", "[e2e][output]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    {
        // One lock: the output fits in any buffer, and the error must still be seen.
        auto one = start_holder(*server, dir, "job");
        check_disk_full(*server, {"status"});
        check_disk_full(*server, {"status", "--json"});
        check_disk_full(*server, {"status", "--names"});
        check_disk_full(*server, {"status", "job"});
        let_go(dir, {one.get()});
    }
    std::filesystem::remove(dir / "go");
    {
        auto many = hold_many(*server, dir, 80);
        auto r = run(*server, {"status", "--wide"});
        REQUIRE(r.out.size() > 8192); // more than any stdio buffer
        check_disk_full(*server, {"status", "--wide"});
        check_disk_full(*server, {"status", "--json"});
        check_disk_full(*server, {"status", "--names"});
        let_go(dir, {many.get()});
    }
    check_disk_full(*server, {"history", "job"});
    check_disk_full(*server, {"history", "--json", "job"});
    check_disk_full(*server, {"history", "never-used"}); // "no history for never-used", exit 1
    check_disk_full(*server, {"config"});
    check_disk_full(*server, {"--help"});
    check_disk_full(*server, {"run", "--help"});
    check_disk_full(*server, {"--version"});
    check_disk_full(*server, {"release", "--force", "free"});
}

TEST_CASE("latch status, sem status and bench on a full disk: one line and exit 70",
          "[e2e][output]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(run(*server, {"latch", "create", "batch", "2"}).exit_code == 0);
    check_disk_full(*server, {"latch", "status", "batch"});
    check_disk_full(*server, {"latch", "status", "--json", "batch"});
    auto holder =
        start(*server, {"sem", "run", "-p", "2", "pool", "-c", "touch \"$D/held\"; " + kAwaitGo},
              {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }));
    check_disk_full(*server, {"sem", "status", "pool"});
    check_disk_full(*server, {"sem", "status", "--json", "pool"});
    let_go(dir, {holder.get()});
    check_disk_full(*server, {"bench", "--cycles", "5", "--handovers", "5", "-k", "2"});
}

TEST_CASE("a reader that went away ends dlock quietly by SIGPIPE", "[e2e][output]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    {
        auto one = start_holder(*server, dir, "job");
        check_closed_pipe(*server, {"status"});
        check_closed_pipe(*server, {"status", "--names"});
        let_go(dir, {one.get()});
    }
    std::filesystem::remove(dir / "go");
    {
        auto many = hold_many(*server, dir, 80);
        check_closed_pipe(*server, {"status"});
        check_closed_pipe(*server, {"status", "--json"});
        let_go(dir, {many.get()});
    }
    check_closed_pipe(*server, {"history", "job"});
    check_closed_pipe(*server, {"config"});
    check_closed_pipe(*server, {"--help"});
    check_closed_pipe(*server, {"--version"});
}

TEST_CASE("status | head -1 with many locks prints one line and no error", "[e2e][output]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto many = hold_many(*server, dir, 300);
    REQUIRE(run(*server, {"status", "--wide"}).out.size() > 64 * 1024);
    Process p({"-c", "\"$DLOCK_BIN\" --redis \"$URL\" status --wide | head -1"},
              clean_env(nested_env(*server, dir)), "/bin/sh");
    auto r = p.wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(lines(r.out).size() == 1);
    let_go(dir, {many.get()});
}
