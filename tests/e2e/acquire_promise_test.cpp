// Issue 31: `dlock acquire` keeps dlock's promise. Scripts run as cron runs them (`/bin/sh -c`
// in a session of its own, in HOME, stdin /dev/null, stdout and stderr one pipe that the parent
// reads, no terminal, `env -i`): the README's example and its variants exit 0 silently and are
// counted; a lost lease (frozen Redis, release --force, kill -9 of the keeper) and --max-run stop
// every process the script started, before another holder starts; wrappers own nothing;
// `eval "$(dlock acquire ...)"` of a lock not obtained ends the script; flock's subshell idiom,
// several holds and one release; an interactive shell is refused; a run without release counts.

#include "e2e/e2e_helpers.hpp"
#include "support/pty_session.hpp"

#include <cctype>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <pwd.h>
#include <sys/wait.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// A job run as cron runs one: `/bin/sh -c COMMAND` in a session (and process group) of its own,
// in `home`, stdin /dev/null, stdout and stderr one pipe read by the test (its parent), no
// terminal, and only the environment `env` (env -i). Whatever is left of its process group is
// SIGKILLed when it goes out of scope.
class CronJob {
  public:
    struct Outcome {
        int status = -1;    // exit status, 128+N when killed by signal N
        std::string output; // stdout and stderr
        bool eof = false;   // the pipe was closed by every writer
    };

    CronJob(const std::string& command, const Env& env, const std::string& home) {
        std::vector<std::string> args{"/bin/sh", "-c", command}, env_strings;
        for (const auto& [k, v] : env)
            env_strings.push_back(k + "=" + v);
        auto argv = exec_vector(args), envp = exec_vector(env_strings);
        int fds[2];
        REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
        pid_ = fork();
        if (pid_ == 0)
            exec_child(home.c_str(), fds[1], argv.data(), envp.data());
        close(fds[1]);
        out_ = fds[0];
        REQUIRE(pid_ > 0);
    }
    ~CronJob() {
        ::kill(-pid_, SIGKILL); // and every step left behind
        if (!reaped_) {
            ::kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(out_);
    }
    CronJob(const CronJob&) = delete;
    CronJob& operator=(const CronJob&) = delete;

    pid_t pid() const { return pid_; } // also its process group and session

    // Waits for the shell to exit and for the end of its output (cron waits for both); gives the
    // output 5 s after the exit at most. Fails the test after `timeout`.
    Outcome wait(milliseconds timeout = 60s) {
        const auto deadline = Clock::now() + timeout;
        std::optional<Clock::time_point> exited;
        while (!exited || (!eof_ && Clock::now() < *exited + 5s)) {
            if (Clock::now() > deadline) {
                ::kill(-pid_, SIGKILL);
                FAIL("the job did not finish within " << timeout.count()
                                                      << " ms; output: " << output_);
            }
            drain();
            if (!exited && waitpid(pid_, &status_, WNOHANG) == pid_) {
                reaped_ = true;
                exited = Clock::now();
            }
        }
        drain();
        const int status = WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
        return {status, output_, eof_};
    }

  private:
    [[noreturn]] static void exec_child(const char* home, int out, char** argv, char** envp) {
        setsid();
        if (chdir(home) != 0)
            _exit(126);
        dup2(open("/dev/null", O_RDONLY | O_CLOEXEC), 0);
        dup2(out, 1);
        dup2(out, 2);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int s = 1; s < NSIG; ++s)
            sigaction(s, &dfl, nullptr);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        execve(argv[0], argv, envp);
        _exit(127);
    }

    void drain() {
        if (eof_) {
            std::this_thread::sleep_for(20ms);
            return;
        }
        pollfd p{out_, POLLIN, 0};
        if (poll(&p, 1, 20) <= 0)
            return;
        char buf[4096];
        const ssize_t n = read(out_, buf, sizeof buf);
        if (n > 0)
            output_.append(buf, static_cast<size_t>(n));
        else if (n == 0)
            eof_ = true;
    }

    pid_t pid_ = -1;
    int out_ = -1;
    int status_ = 0;
    bool reaped_ = false, eof_ = false;
    std::string output_;
};

std::string login_name() {
    const passwd* pw = getpwuid(getuid());
    return pw ? pw->pw_name : "root";
}

// Cron's environment: env -i PATH=<dlock's directory>:/usr/bin:/bin HOME LOGNAME SHELL, the
// server's URL, and `extra`. (No machine-wide or user config file is read, as elsewhere.)
Env cron_env(const std::string& url, const std::string& home, const Env& extra = {}) {
    Env env{
        {"PATH", std::filesystem::path(dlock_binary()).parent_path().string() + ":/usr/bin:/bin"},
        {"HOME", home},
        {"LOGNAME", login_name()},
        {"SHELL", "/bin/sh"},
        {"DLOCK_REDIS_URL", url},
        {"DLOCK_SYSTEM_CONFIG", "/dev/null"},
        {"DLOCK_CONFIG", "/dev/null"}};
    for (const auto& [k, v] : extra)
        env[k] = v;
    return env;
}

// A job of the tests below: cron's conditions, HOME and $D the scratch directory.
std::unique_ptr<CronJob> start_job(const RedisServer& server, const TempDir& dir,
                                   const std::string& command, const Env& extra = {}) {
    Env env = cron_env(server.url(), dir.path(), extra);
    env.emplace("D", dir.path());
    return std::make_unique<CronJob>(command, env, dir.path());
}

// Writes an executable script `name` in `dir`: "#!SHELL" then `body`; returns its path.
std::string script_file(const TempDir& dir, const std::string& name, const std::string& body,
                        const std::string& shell = "/bin/sh") {
    return write_file(dir / name, "#!" + shell + "\n" + body, 0755);
}

bool held(const RedisServer& server, const std::string& name) {
    return exists(server, key(name));
}

// The live (not zombie) processes of process group `pgid`, one "PID COMMAND" line each.
std::string group_members(pid_t pgid) {
    std::string found;
    DIR* proc = opendir("/proc");
    while (const dirent* entry = proc ? readdir(proc) : nullptr) {
        const int pid = atoi(entry->d_name);
        if (pid <= 0)
            continue;
        const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
        const auto paren = stat.rfind(')');
        if (paren == std::string::npos)
            continue;
        std::istringstream fields(stat.substr(paren + 2));
        char state = 0;
        long ppid = 0, group = 0;
        fields >> state >> ppid >> group;
        if (group != pgid || state == 'Z' || state == 'X')
            continue;
        std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        found += std::to_string(pid) + " " + cmdline + "\n";
    }
    if (proc)
        closedir(proc);
    return found;
}

// Whether every process of the job's group is gone within `timeout`.
bool group_gone(const CronJob& job, milliseconds timeout = 30s) {
    const bool gone = eventually([&] { return group_members(job.pid()).empty(); }, timeout);
    INFO("left of the script's process group:\n" << group_members(job.pid()));
    CHECK(gone);
    return gone;
}

// The steps a script starts once it holds the lock: a writer appending the time (ns) to $D/writes
// every 50 ms and a step that ignores TERM, in the background; then it waits for them.
const std::string kSteps = R"(
echo "$DLOCK_KEEPER_PID" > "$D/keeper"
sh -c 'while :; do date +%s%N >> "$D/writes"; sleep 0.05; done' &
sh -c 'trap "" TERM; echo $$ > "$D/stubborn"; while :; do sleep 0.05; done' &
wait
)";

// A script that takes `job` with these acquire options and starts kSteps.
std::string stepping_script(const std::string& options) {
    return "out=$(dlock acquire " + options + " job) || exit 9\neval \"$out\"\n" + kSteps;
}

// Another holder, which takes `job` (waiting for it) and writes the time (ns) to $D/next.
void next_holder(const RedisServer& server, const TempDir& dir) {
    auto r = run(server, {"run", "-w", "60s", "job", "--", "sh", "-c", "date +%s%N > \"$D/next\""},
                 {{"D", dir.path()}}, 90s);
    INFO("next holder: " << r.err);
    CHECK(r.exit_code == 0);
}

// The writer's last write came before the next holder started.
void check_last_write_before_next(const TempDir& dir) {
    std::this_thread::sleep_for(1s); // a writer still running writes again meanwhile
    const auto writes = lines(read_file(dir / "writes"));
    REQUIRE_FALSE(writes.empty());
    const long long last = std::stoll(writes.back());
    const long long next = std::stoll(wait_for_line(dir / "next", 30s));
    INFO("last write " << last << ", next holder's start " << next << " ("
                       << (last - next) / 1'000'000 << " ms later)");
    CHECK(last < next);
}

// Waits until a stepping script holds the lock, its writer wrote and its other step ignores
// TERM; returns the keeper's pid.
pid_t await_steps(const TempDir& dir) {
    const pid_t keeper = static_cast<pid_t>(std::stol(wait_for_line(dir / "keeper", 30s)));
    wait_for_line(dir / "writes", 30s);
    wait_for_line(dir / "stubborn", 30s);
    return keeper;
}

} // namespace

// ---- 1. the README's example under cron ---------------------------------------------------

namespace {

struct CronVariant {
    std::string label;
    std::string hold;    // the script's lines after eval, steps included
    std::string command; // cron's command line; NIGHTLY is the script's path
};

std::string nightly_script(const CronVariant& v) {
    return "set -e\nout=$(dlock acquire nightly-job) || exit 0\neval \"$out\"\n" + v.hold;
}

std::string cron_command(const CronVariant& v, const std::string& nightly) {
    std::string command = v.command;
    command.replace(command.find("NIGHTLY"), 7, nightly);
    return command;
}

} // namespace

TEST_CASE("the README's acquire example runs under cron: exit 0, silent, both steps, counted",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    const std::string steps = "./step-one && ./step-two\n";
    const auto v = GENERATE_COPY(values<CronVariant>({
        {"README", steps + "dlock release\n", "NIGHTLY"},
        {"trap EXIT", "trap 'dlock release' EXIT\n" + steps, "NIGHTLY"},
        {"| tee -a log", steps + "dlock release\n", "NIGHTLY | tee -a log"},
        {"timeout 10 dlock release", steps + "timeout 10 dlock release\n", "NIGHTLY"},
        // Beyond the brief: a wrapper script that captures the job's output (its reader is in
        // the job's session, as under a shell wrapper or a systemd unit running one).
        {"captured by a wrapper", steps + "dlock release\n",
         "out=$(NIGHTLY 2>&1); rc=$?; printf %s \"$out\"; exit $rc"},
    }));
    INFO("variant: " << v.label);
    TempDir home;
    script_file(home, "step-one", "echo one >> steps\n");
    script_file(home, "step-two", "echo two >> steps\n");
    const std::string nightly = script_file(home, "nightly.sh", nightly_script(v));
    CronJob job(cron_command(v, nightly), cron_env(server->url(), home.path()), home.path());
    const auto r = job.wait(60s);
    CHECK(r.status == 0);
    CHECK(r.output == "");
    CHECK(r.eof);
    CHECK(read_file(home / "steps") == "one\ntwo\n");
    CHECK(read_file(home / "log") == "");
    CHECK(eventually([&] { return !held(*server, "nightly-job"); }, 20s));
    auto history = run(*server, {"history", "nightly-job"});
    INFO("history: " << history.out << history.err);
    CHECK(history.out.find("release") != std::string::npos);
    auto check = run(*server, {"check", "nightly-job", "--max-age", "1d"});
    INFO("check: " << check.out);
    CHECK(check.exit_code == 0);
    CHECK(check.out.starts_with("OK - nightly-job last succeeded "));
}

namespace {

// The nightly.sh of the README's acquire example, as the README shows it: the indented lines
// after "# nightly.sh" up to the first line that is not indented.
std::string readme_nightly_script() {
    const std::string readme = read_file(std::string(DLOCK_SOURCE_DIR) + "/README.md");
    const size_t at = readme.find("    # nightly.sh\n");
    REQUIRE(at != std::string::npos);
    std::string body;
    std::istringstream rest(readme.substr(readme.find('\n', at) + 1));
    for (std::string line; std::getline(rest, line) && line.starts_with("    ");)
        body += line.substr(4) + "\n";
    return body;
}

} // namespace

TEST_CASE("the README's acquire example itself, under cron: runs and is counted, or skips at 75",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    const std::string body = readme_nightly_script();
    INFO("nightly.sh:\n" << body);
    REQUIRE(body.find("dlock acquire nightly-job") != std::string::npos);
    TempDir home;
    script_file(home, "step-one", "echo one >> steps\n");
    script_file(home, "step-two", "echo two >> steps\n");
    const std::string nightly = script_file(home, "nightly.sh", body);
    {
        CronJob job(nightly, cron_env(server->url(), home.path()), home.path());
        const auto r = job.wait(60s);
        CHECK(r.status == 0);
        CHECK(r.output == "");
        CHECK(read_file(home / "steps") == "one\ntwo\n");
    }
    CHECK(eventually([&] { return !held(*server, "nightly-job"); }, 20s));
    auto check = run(*server, {"check", "nightly-job", "--max-age", "1d"});
    INFO("check: " << check.out);
    CHECK(check.out.starts_with("OK - nightly-job last succeeded "));
    // Another host holds it: this one skips silently, its steps never run.
    TempDir dir;
    auto holder = start_holder(*server, dir, "nightly-job");
    CronJob busy(nightly, cron_env(server->url(), home.path()), home.path());
    const auto skipped = busy.wait(60s);
    CHECK(skipped.status == 75);
    CHECK(skipped.output == "");
    CHECK(read_file(home / "steps") == "one\ntwo\n");
    let_go(dir, {holder.get()});
}

// ---- 2. a lost lease stops every process the script started ------------------------------

TEST_CASE("Redis frozen past the TTL: every step is stopped before the next holder starts",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, stepping_script("--ttl 3s"));
    await_steps(dir);
    const auto frozen = Clock::now();
    server->pause();
    struct Resume { // however the test ends
        const RedisServer& server;
        ~Resume() { server.resume(); }
    } resume{*server};
    group_gone(*job);
    std::this_thread::sleep_until(frozen + 4s); // past the TTL: the lease expired on the server
    server->resume();
    next_holder(*server, dir);
    check_last_write_before_next(dir);
    CHECK(group_members(job->pid()).empty());
    job->wait(60s);
}

TEST_CASE("release --force: every step dies, the script fails, the next holder acquires",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, stepping_script("--ttl 3s"));
    await_steps(dir);
    auto broken = run(*server, {"release", "--force", "job"});
    REQUIRE(broken.exit_code == 0);
    group_gone(*job);
    const auto r = job->wait(60s);
    INFO("script output: " << r.output);
    CHECK(r.status != 0);
    next_holder(*server, dir);
}

// ---- 3. kill -9 of the keeper --------------------------------------------------------------

TEST_CASE("kill -9 of the keeper stops every step before another holder can start",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, stepping_script("--ttl 3s"));
    const pid_t keeper = await_steps(dir);
    REQUIRE(keeper > 1);
    REQUIRE(::kill(keeper, SIGKILL) == 0);
    group_gone(*job);
    next_holder(*server, dir);
    check_last_write_before_next(dir);
    CHECK(group_members(job->pid()).empty());
    job->wait(60s);
}

// ---- 4. --max-run --------------------------------------------------------------------------

TEST_CASE("acquire --max-run kills a step that ignores TERM, records a timeout, frees the name",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, stepping_script("--max-run 3s --kill-after 1s"));
    await_steps(dir);
    group_gone(*job);
    const auto r = job->wait(60s);
    INFO("script output: " << r.output);
    CHECK(r.status != 0);
    CHECK(eventually([&] { return !held(*server, "job"); }, 20s));
    auto history = run(*server, {"history", "--json", "job"});
    INFO("history: " << history.out);
    CHECK(history.out.find("\"event\":\"timeout\"") != std::string::npos);
}

// ---- 5. wrappers ---------------------------------------------------------------------------

TEST_CASE("acquire through timeout holds the lock for the script, until it exits",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    const auto [label, take] = GENERATE(table<std::string, std::string>({
        {"$(timeout 10 dlock acquire)", "out=$(timeout 10 dlock acquire x) || exit 9\n"
                                        "eval \"$out\"\n"},
        {"timeout 10 dlock acquire > f; . ./f", "cd \"$D\"\ntimeout 10 dlock acquire x > f "
                                                "|| exit 9\n. ./f\n"},
    }));
    INFO(label);
    TempDir dir;
    auto job = start_job(*server, dir, take + R"(echo $$ > "$D/shell"
i=0; while [ ! -e "$D/go" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
)");
    const std::string shell = wait_for_line(dir / "shell", 30s);
    std::this_thread::sleep_for(500ms); // a hold that ended with the wrapper would be gone
    CHECK(held(*server, "x"));
    CHECK(run(*server, {"run", "x", "--", "true"}).exit_code == 75);
    auto status = run(*server, {"status", "x"});
    INFO("status: " << status.out);
    CHECK(status.out.find(" " + shell + " ") != std::string::npos);
    touch(dir / "go");
    const auto r = job->wait(60s);
    INFO("output: " << r.output);
    CHECK(r.status == 0);
    CHECK(eventually([&] { return !held(*server, "x"); }, 20s));
}

TEST_CASE("acquire run by runuser as another user is refused: it could not signal the script",
          "[e2e][acquire][acquire-promise]") {
    std::string runuser;
    for (const char* path : {"/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"})
        if (runuser.empty() && access(path, X_OK) == 0)
            runuser = path;
    if (getuid() != 0 || runuser.empty()) {
        WARN("needs root and runuser to run acquire as nobody: skipped");
        return;
    }
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir,
                         "cd /\nout=$(" + runuser +
                             " -u nobody -- \"$DLOCK\" --redis \"$TCP\" acquire x 2> \"$D/err\")\n"
                             "echo $? > \"$D/rc\"\nprintf '%s\\n' \"$out\" > \"$D/out\"\n",
                         {{"TCP", server->tcp_url()}, {"DLOCK", dlock_binary()}});
    const auto r = job->wait(60s);
    const std::string err = read_file(dir / "err");
    INFO("output: " << r.output << "stderr: " << err);
    CHECK(trim(read_file(dir / "rc")) == "64");
    CHECK(one_line(err));
    CHECK(err.find("cannot signal") != std::string::npos);
    CHECK(trim(read_file(dir / "out")) == "exit 64");
    std::this_thread::sleep_for(500ms);
    CHECK_FALSE(held(*server, "x"));
}

// ---- 6. eval "$(dlock acquire ...)" of a lock not obtained ----------------------------------

TEST_CASE("set -e and eval of acquire's output: a lock not obtained ends the script",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    const std::string shell = GENERATE(std::string("/bin/sh"), std::string("/bin/bash"));
    INFO("shell: " << shell);
    TempDir dir;
    const std::string path = script_file(dir, "job.sh",
                                         "set -e\neval \"$(dlock acquire busy)\"\n"
                                         "echo ran > \"$D/marker\"\n",
                                         shell);
    auto holder = start_holder(*server, dir, "busy");
    const auto busy = start_job(*server, dir, path)->wait(60s);
    INFO("busy: " << busy.output);
    CHECK(busy.status == 75);
    CHECK_FALSE(file_exists(dir / "marker"));
    let_go(dir, {holder.get()});
    std::filesystem::remove(dir / "marker");

    const std::string closed = "redis://127.0.0.1:" + std::to_string(free_tcp_port());
    const auto down = start_job(*server, dir, path, {{"DLOCK_REDIS_URL", closed}})->wait(60s);
    INFO("down: " << down.output);
    CHECK(down.status == 69);
    CHECK_FALSE(file_exists(dir / "marker"));
}

// ---- 7. flock's subshell idiom; several holds, one release ---------------------------------

TEST_CASE("flock's subshell idiom: a hold taken in a subshell ends with the subshell",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, R"(
for i in 1 2 3; do ( out=$(dlock acquire x) || exit 1; eval "$out"; echo $i >> "$D/ran" ); done
echo "loop $?" > "$D/loop"
)");
    const auto r = job->wait(60s);
    INFO("output: " << r.output);
    CHECK(r.status == 0);
    CHECK(read_file(dir / "ran") == "1\n2\n3\n");
    CHECK(trim(read_file(dir / "loop")) == "loop 0");
    CHECK(eventually([&] { return !held(*server, "x"); }, 20s));
}

TEST_CASE("two acquires in one script: one release frees both, a second release exits 76",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto job = start_job(*server, dir, R"(
out=$(dlock acquire a) || exit 1; eval "$out"
out=$(dlock acquire b) || exit 2; eval "$out"
dlock -v release 2> "$D/release.err"; echo "release $?" > "$D/release"
dlock status a > /dev/null; echo "a $?" > "$D/a"
dlock status b > /dev/null; echo "b $?" > "$D/b"
dlock release 2> "$D/second.err"; echo "second $?" > "$D/second"
)");
    const auto r = job->wait(60s);
    const std::string released = read_file(dir / "release.err");
    INFO("output: " << r.output << "release: " << released
                    << "second release: " << read_file(dir / "second.err"));
    CHECK(r.status == 0);
    CHECK(trim(read_file(dir / "release")) == "release 0");
    CHECK(released.find("released a") != std::string::npos);
    CHECK(released.find("released b") != std::string::npos);
    CHECK(trim(read_file(dir / "a")) == "a 1"); // not held
    CHECK(trim(read_file(dir / "b")) == "b 1");
    CHECK(trim(read_file(dir / "second")) == "second 76");
    CHECK_FALSE(held(*server, "a"));
    CHECK_FALSE(held(*server, "b"));
}

// ---- 8. an interactive shell ---------------------------------------------------------------

namespace {

// The number a terminal shows right after `tag` ("rc=" of "rc=64"); -1 while it shows none.
int shown_number(const std::string& terminal, const std::string& tag) {
    for (auto at = terminal.find(tag); at != std::string::npos; at = terminal.find(tag, at + 1)) {
        const auto start = at + tag.size();
        if (start < terminal.size() && std::isdigit(static_cast<unsigned char>(terminal[start])))
            return std::stoi(terminal.substr(start));
    }
    return -1;
}

} // namespace

TEST_CASE("acquire at an interactive shell is refused and the shell lives on",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto env = clean_env(nested_env(*server, dir));
    env["PS1"] = "$ ";
    env["TERM"] = "dumb";
    PtySession shell({"/bin/bash", "--norc", "--noprofile", "-i"}, env);
    REQUIRE(shell.await_output("$ ", 20s));
    shell.type("\"$DLOCK_BIN\" --redis \"$URL\" acquire x; echo direct=$?\n");
    CHECK(shell.await_output("direct=64", 30s));
    CHECK(shell.output().find("interactive") != std::string::npos);
    // The idiom: the refusal must neither end the shell (the login session) nor read as success.
    shell.type("eval \"$(\"$DLOCK_BIN\" --redis \"$URL\" acquire x)\"; echo rc=$?\n");
    CHECK(eventually([&] { return shown_number(shell.output(), "rc=") >= 0; }, 30s));
    shell.type("echo alive-$((40+2))\n");
    CHECK(shell.await_output("alive-42", 30s));
    INFO("terminal: " << shell.output());
    CHECK(shown_number(shell.output(), "rc=") > 0);
    CHECK_FALSE(held(*server, "x"));
    shell.type("exit\n");
    shell.wait(20s);
}

// ---- 9. a run that ended without release is counted ----------------------------------------

TEST_CASE("a run that ends without release is counted, its exit status unknown",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto r =
        start_job(*server, dir, "out=$(dlock acquire x) || exit 9\neval \"$out\"\nexit 0\n")
            ->wait(60s);
    INFO("output: " << r.output);
    CHECK(r.status == 0);
    CHECK(eventually([&] { return !held(*server, "x"); }, 20s));
    auto history = run(*server, {"history", "--json", "x"});
    INFO("history: " << history.out);
    CHECK(history.out.find("\"event\":\"release\"") != std::string::npos);
    auto check = run(*server, {"check", "x", "--max-age", "1h"});
    INFO("check: " << check.out);
    CHECK(check.exit_code == 0);
    CHECK(check.out.starts_with("OK - x "));
    CHECK(check.out.find("unknown") != std::string::npos);
}

TEST_CASE("release --status in an EXIT trap counts the run with the script's exit status",
          "[e2e][acquire][acquire-promise]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // A success, then a failure: check's WARNING is for a failure after a success.
    for (const std::string status : {"0", "3"}) {
        const auto r = start_job(*server, dir,
                                 "out=$(dlock acquire y) || exit 9\neval \"$out\"\n"
                                 "trap 'dlock release --status $?' EXIT\nexit " +
                                     status + "\n")
                           ->wait(60s);
        INFO("exit " << status << ", output: " << r.output);
        CHECK(r.status == std::stoi(status));
        CHECK(r.output == "");
        CHECK(eventually([&] { return !held(*server, "y"); }, 20s));
        auto check = run(*server, {"check", "y", "--max-age", "1h"});
        INFO("check: " << check.out);
        CHECK(check.exit_code == (status == "0" ? 0 : 1));
        CHECK(check.out.starts_with(status == "0" ? "OK - y last succeeded "
                                                  : "WARNING - y last run failed on "));
        CHECK(check.out.find("(exit " + status + ", took ") != std::string::npos);
    }
}
