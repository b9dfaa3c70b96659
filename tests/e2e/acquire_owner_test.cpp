// Whose lock `dlock acquire` keeps without --pid: the script, also when the shell runs dlock
// through a helper process (a subshell for a substitution with a redirection or an ERR trap, a
// wrapper such as timeout), and also when the script is the first process of a container.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// `acquire` is how the script takes the lock (a shell line setting $out); then it says who it
// is and waits for $D/go.
std::string holding_script(const std::string& acquire) {
    return acquire + R"( || exit 9
eval "$out"
echo $$ > "$D/shell"
i=0; while [ ! -e "$D/go" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
)";
}

std::unique_ptr<Process> start_script(const RedisServer& server, const TempDir& dir,
                                      const std::string& shell, std::vector<std::string> args) {
    return std::make_unique<Process>(
        std::move(args),
        clean_env(
            {{"DLOCK", dlock_binary()}, {"D", dir.path()}, {"DLOCK_REDIS_URL", server.url()}}),
        shell);
}

// While the script waits, the lock is held for it: another process is refused, and status
// names the script's shell; once it exits, the name is free.
void check_held_for_script(const RedisServer& server, const TempDir& dir, Process& script) {
    const std::string shell_pid = wait_for_line(dir / "shell", 30s);
    auto other = run(server, {"run", "job", "--", "true"});
    CHECK(other.exit_code == 75);
    auto status = run(server, {"status", "job"});
    INFO("status: " << status.out);
    CHECK(status.out.find(" " + shell_pid + " ") != std::string::npos);
    touch(dir / "go");
    auto r = script.wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(eventually([&] { return !exists(server, key("job")); }, 10s));
}

} // namespace

TEST_CASE("acquire keeps the lock for the script when a subshell or wrapper runs dlock",
          "[e2e][acquire][owner]") {
    REQUIRE_REDIS(server);
    const auto [shell, acquire] = GENERATE(table<std::string, std::string>({
        {"/bin/bash", R"(out=$("$DLOCK" acquire job 2>/dev/null))"},
        {"/bin/bash", R"(set -E; trap 'true' ERR; out=$("$DLOCK" acquire job))"},
        {"/bin/bash", R"(out=$(timeout 60 "$DLOCK" acquire job))"},
        {"/bin/dash", R"(out=$("$DLOCK" acquire job 2>/dev/null))"},
        {"/usr/bin/zsh", R"(TRAPZERR() { true; }; out=$("$DLOCK" acquire job 2>/dev/null))"},
    }));
    if (access(shell.c_str(), X_OK) != 0) {
        WARN(shell << " is not installed: skipped");
        return;
    }
    INFO(shell << ": " << acquire);
    TempDir dir;
    auto script = start_script(*server, dir, shell, {"-c", holding_script(acquire)});
    check_held_for_script(*server, dir, *script);
}

TEST_CASE("acquire works in a script that is the first process of a container",
          "[e2e][acquire][owner]") {
    if (getuid() != 0 || access("/usr/bin/unshare", X_OK) != 0) {
        WARN("needs root and unshare for a PID namespace: skipped");
        return;
    }
    REQUIRE_REDIS(server);
    TempDir dir;
    // The script is pid 1 of a new PID namespace, as in `docker run image /job.sh`.
    auto script =
        start_script(*server, dir, "/usr/bin/unshare",
                     {"--pid", "--fork", "--mount-proc", "/bin/sh", "-c",
                      holding_script(R"(out=$("$DLOCK" acquire job))") + R"("$DLOCK" release)"});
    CHECK(wait_for_line(dir / "shell", 30s) == "1");
    check_held_for_script(*server, dir, *script);
}

TEST_CASE("a child script that inherited DLOCK_HOLD cannot release its parent's hold",
          "[e2e][acquire][owner]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The child's own acquire would be busy; its EXIT trap releases "its" hold, which is the
    // parent's. A subshell of the parent may release it, and --hold says "on purpose".
    write_file(dir / "child.sh",
               R"(trap '"$DLOCK" release 2> "$D/child.err"; echo $? > "$D/child"' EXIT
)");
    auto script =
        start_script(*server, dir, "/bin/sh", {"-c", R"(out=$("$DLOCK" acquire job) || exit 9
eval "$out"
sh "$D/child.sh"
"$DLOCK" status job > /dev/null; echo $? > "$D/held"
DLOCK_HOLD=$DLOCK_HOLD sh -c '"$DLOCK" release --hold "$DLOCK_HOLD"'; echo $? > "$D/on-purpose"
)"});
    auto r = script->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(wait_for_line(dir / "child") == "64");
    CHECK(read_file(dir / "child.err").find("DLOCK_HOLD was inherited") != std::string::npos);
    CHECK(wait_for_line(dir / "held") == "0"); // the parent still held it
    CHECK(wait_for_line(dir / "on-purpose") == "0");
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a subshell of the script may release its hold", "[e2e][acquire][owner]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto script =
        start_script(*server, dir, "/bin/bash", {"-c", R"(out=$("$DLOCK" acquire job) || exit 9
eval "$out"
( "$DLOCK" release ); echo $? > "$D/released"
"$DLOCK" status job > /dev/null; echo $? > "$D/after"
)"});
    auto r = script->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(wait_for_line(dir / "released") == "0");
    CHECK(wait_for_line(dir / "after") == "1");
}

TEST_CASE("a release run by exec in the owner's own process may release", "[e2e][acquire][owner]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The last command of `sh -c` replaces the shell: the release is the owner itself.
    auto script =
        start_script(*server, dir, "/bin/sh", {"-c", R"(out=$("$DLOCK" acquire job) || exit 9
eval "$out"
exec "$DLOCK" release)"});
    auto r = script->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(exists(*server, key("job")));
}
