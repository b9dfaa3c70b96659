// The guardian process (lockguard): it holds nothing of dlock's but its pipe, so a reader of
// dlock's output sees end of file when dlock exits, and dlock reaps it before exiting, whatever
// the way, so that none is left as a zombie under an init that does not reap.

#include "e2e/e2e_helpers.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The child of `pid` named lockguard, or -1.
pid_t guardian_of(pid_t pid) {
    const auto id = std::to_string(pid);
    std::istringstream children(read_file("/proc/" + id + "/task/" + id + "/children"));
    for (pid_t child; children >> child;)
        if (trim(read_file("/proc/" + std::to_string(child) + "/comm")) == "lockguard")
            return child;
    return -1;
}

// "3:pipe:[123] ...": each open fd of `pid` and what it is.
std::string fds_of(pid_t pid) {
    const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
    std::string out;
    DIR* d = opendir(dir.c_str());
    REQUIRE(d != nullptr);
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        std::error_code ec;
        out += std::string(e->d_name) + ":" +
               std::filesystem::read_symlink(dir + "/" + e->d_name, ec).string() + " ";
    }
    closedir(d);
    return out;
}

struct Leftover {
    int dlock_status = -1; // as waitpid gives it
    // What dlock left to its parent: 0 nothing, 1 a running child, 2 a zombie.
    int children = -1;
};

// Runs dlock ARGS under a child subreaper that reaps nothing but dlock (as an init that does not
// reap would), and says what dlock left behind once it has exited: its orphans come to the
// subreaper, which looks for them with WNOHANG (no waiting: dlock must have reaped its guardian
// before it exited).
Leftover run_under_subreaper(const std::vector<std::string>& args, const Env& env) {
    std::vector<std::string> argv_strings{dlock_binary()};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    std::vector<std::string> env_strings = child_environment(clean_env(env));
    std::vector<char*> argv = exec_vector(argv_strings), envp = exec_vector(env_strings);

    int report[2];
    REQUIRE(pipe2(report, O_CLOEXEC) == 0);
    const pid_t helper = fork();
    REQUIRE(helper >= 0);
    if (helper == 0) { // async-signal-safe calls only from here
        Leftover out;
        if (prctl(PR_SET_CHILD_SUBREAPER, 1) == 0) {
            const pid_t dlock = fork();
            if (dlock == 0) {
                const int null = open("/dev/null", O_RDWR);
                dup2(null, 0);
                dup2(null, 1);
                dup2(null, 2);
                execve(argv[0], argv.data(), envp.data());
                _exit(127);
            }
            while (dlock > 0 && waitpid(dlock, &out.dlock_status, 0) < 0 && errno == EINTR) {
            }
            const pid_t left = waitpid(-1, nullptr, WNOHANG | __WALL);
            out.children = left < 0 ? 0 : left == 0 ? 1 : 2;
        }
        (void)!write(report[1], &out, sizeof out);
        _exit(0);
    }
    close(report[1]);
    Leftover out;
    const bool reported = read(report[0], &out, sizeof out) == static_cast<ssize_t>(sizeof out);
    close(report[0]);
    int status = 0;
    waitpid(helper, &status, 0);
    REQUIRE(reported);
    return out;
}

// Runs dlock ARGS with stdout and stderr one pipe, as `x=$(dlock ... 2>&1)` does, and waits for
// dlock's exit. Then reads the pipe without blocking: true if it is at end of file (nothing of
// dlock's, its guardian's or its command's holds it any more), false if a writer is left.
bool output_ended_by_exit(const std::vector<std::string>& args, int& status) {
    std::vector<std::string> argv_strings{dlock_binary()};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    std::vector<std::string> env_strings = child_environment(clean_env());
    std::vector<char*> argv = exec_vector(argv_strings), envp = exec_vector(env_strings);
    int out[2];
    REQUIRE(pipe2(out, O_CLOEXEC) == 0);
    const pid_t dlock = fork();
    REQUIRE(dlock >= 0);
    if (dlock == 0) {
        dup2(out[1], 1);
        dup2(out[1], 2);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    close(out[1]);
    while (waitpid(dlock, &status, 0) < 0 && errno == EINTR) {
    }
    REQUIRE(fcntl(out[0], F_SETFL, O_NONBLOCK) == 0);
    char buffer[4096];
    ssize_t n;
    while ((n = read(out[0], buffer, sizeof buffer)) > 0) {
    }
    close(out[0]);
    return n == 0;
}

} // namespace

TEST_CASE("a reader of dlock's output sees end of file once dlock's exit is seen",
          "[e2e][guardian][fds]") {
    REQUIRE_REDIS(server);
    // Refused (the guardian started during the acquire is ended too), run, failed to start.
    auto holder = start(*server, {"run", "held", "--", "sleep", "30"});
    REQUIRE(eventually([&] { return exists(*server, key("held")); }));
    auto [name, command, ended] = GENERATE(table<std::string, std::string, int>({
        {"job", "true", 0},
        {"job", "/nonexistent/command", 127},
        {"held", "true", 75},
    }));
    int status = -1;
    CHECK(output_ended_by_exit(with_redis(*server, {"run", name, "--", command}), status));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == ended);
    holder->signal(SIGTERM);
    holder->wait(20s);
}

TEST_CASE("the guardian holds no descriptor of dlock's but its pipe", "[e2e][guardian][fds]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto dlock = start(*server, {"run", "job", "-c", "echo $$ > \"$D/pid\"; exec sleep 30"},
                       {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    REQUIRE(eventually(
        [&] { return trim(read_file("/proc/" + std::to_string(command) + "/comm")) == "sleep"; }));
    const pid_t guardian = guardian_of(dlock->pid());
    REQUIRE(guardian > 0);
    // Not 0-2: `x=$(dlock run ...)` or `dlock run ... | cat` would wait for the guardian too.
    const std::string fds = fds_of(guardian);
    INFO("the guardian's fds: " << fds << "; dlock's: " << fds_of(dlock->pid()));
    CHECK(fds.find(' ') == fds.size() - 1); // one
    CHECK(fds.find(":pipe:[") != std::string::npos);
    dlock->signal(SIGTERM);
    CHECK(dlock->wait(20s).exit_code == 128 + SIGTERM);
}

TEST_CASE("dlock reaps its guardian before it exits, whatever the way",
          "[e2e][guardian][signals]") {
    REQUIRE_REDIS(server);
    auto [what, command, ended] = GENERATE(table<std::string, std::vector<std::string>, int>({
        {"the command succeeds", {"--", "true"}, 0},
        {"the command fails", {"-c", "exit 3"}, 3},
        {"the command cannot be run", {"--", "/nonexistent/command"}, 127},
        // dlock dies of the command's SIGINT (die_of_signal), as a shell loop expects.
        {"dlock dies of the command's SIGINT", {"-c", "kill -INT $$"}, -SIGINT},
    }));
    INFO(what);
    std::vector<std::string> args{"run", "job"};
    args.insert(args.end(), command.begin(), command.end());
    const Leftover left = run_under_subreaper(with_redis(*server, args), {});
    if (ended >= 0) {
        CHECK(WIFEXITED(left.dlock_status));
        CHECK(WEXITSTATUS(left.dlock_status) == ended);
    } else {
        CHECK(WIFSIGNALED(left.dlock_status));
        CHECK(WTERMSIG(left.dlock_status) == -ended);
    }
    CHECK(left.children == 0); // not 1 (a guardian still running), nor 2 (a zombie)
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a run refused because the lock is held reaps the guardian it started meanwhile",
          "[e2e][guardian][busy]") {
    REQUIRE_REDIS(server);
    auto holder = start(*server, {"run", "job", "--", "sleep", "30"});
    REQUIRE(eventually([&] { return exists(*server, key("job")); }));
    const Leftover left =
        run_under_subreaper(with_redis(*server, {"run", "job", "--", "true"}), {});
    CHECK(WIFEXITED(left.dlock_status));
    CHECK(WEXITSTATUS(left.dlock_status) == 75);
    CHECK(left.children == 0);
    holder->signal(SIGTERM);
    CHECK(holder->wait(20s).exit_code == 128 + SIGTERM);
}
