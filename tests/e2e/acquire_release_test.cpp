// `dlock acquire` / `dlock release`: a lock held for the rest of a shell script by a keeper
// process, in every shell present; the keeper ends with its owner, answers one release, and
// signals the owner when the lease is lost.

#include "e2e/acquire_script.hpp"
#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

#include <dirent.h>
#include <future>
#include <set>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Whether `pipe` ("pipe:[inode]", open in the keeper) is the guardian's: a lockguard child of
// the keeper holds it too.
bool guardian_holds(pid_t keeper, const std::string& pipe) {
    const auto id = std::to_string(keeper);
    std::istringstream children(read_file("/proc/" + id + "/task/" + id + "/children"));
    for (pid_t child; children >> child;) {
        const std::string fds = "/proc/" + std::to_string(child) + "/fd";
        if (trim(read_file("/proc/" + std::to_string(child) + "/comm")) != "lockguard")
            continue;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(fds, ec))
            if (std::filesystem::read_symlink(entry.path(), ec).string() == pipe)
                return true;
    }
    return false;
}

// The shells the idiom is tested in; one that is not installed is skipped.
std::vector<std::string> shells() {
    std::vector<std::string> present;
    for (const char* shell : {"/bin/bash", "/bin/dash", "/bin/zsh", "/usr/bin/zsh"})
        if (access(shell, X_OK) == 0 &&
            std::find_if(present.begin(), present.end(), [&](const std::string& s) {
                return std::filesystem::path(s).filename() ==
                       std::filesystem::path(shell).filename();
            }) == present.end())
            present.emplace_back(shell);
    return present;
}

bool held(const RedisServer& server, const std::string& name = "job") {
    return exists(server, key(name));
}

// The value of `variable` in acquire's sh output ("" when absent).
std::string assigned(const std::string& out, const std::string& variable) {
    const std::string start = "export " + variable + "='";
    for (const auto& line : lines(out))
        if (line.starts_with(start) && line.ends_with("'"))
            return line.substr(start.size(), line.size() - start.size() - 1);
    return "";
}

// The processes whose command line contains `marker`.
std::vector<pid_t> processes_with(const std::string& marker) {
    std::vector<pid_t> found;
    DIR* proc = opendir("/proc");
    while (const dirent* entry = proc ? readdir(proc) : nullptr) {
        const int pid = atoi(entry->d_name);
        if (pid <= 0 || pid == getpid())
            continue;
        std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find(marker) != std::string::npos)
            found.push_back(pid);
    }
    if (proc)
        closedir(proc);
    return found;
}

// A `sleep SECONDS` to own a hold (--pid), returned once it runs sleep (not the test's image
// between fork and exec, whose command line acquire would show).
std::unique_ptr<Process> start_sleeper(const std::string& seconds) {
    auto sleeper =
        std::make_unique<Process>(std::vector<std::string>{seconds}, Env{}, "/bin/sleep");
    const std::string cmdline = "/proc/" + std::to_string(sleeper->pid()) + "/cmdline";
    REQUIRE(eventually([&] { return read_file(cmdline).starts_with("/bin/sleep"); }, 20s));
    return sleeper;
}

const std::string kIdiom = R"(
out=$("$DLOCK" acquire job) || exit 9
eval "$out"
echo $$ > "$D/shell"
"$DLOCK" status job > "$D/status"
"$DLOCK" release || exit 8
"$DLOCK" status job > /dev/null
echo "after $?" > "$D/after"
)";

} // namespace

TEST_CASE("the acquire idiom holds the lock for the script, in every shell present",
          "[e2e][acquire]") {
    REQUIRE_REDIS(server);
    for (const auto& shell : shells()) {
        INFO("shell: " << shell);
        TempDir dir;
        auto r = script(*server, dir, kIdiom, shell)->wait(30s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        // The owner, shown as the holder, is the script's shell: the substitution's child
        // execs dlock, so dlock's parent is the shell.
        const std::string shell_pid = trim(read_file(dir / "shell"));
        const std::string status = read_file(dir / "status");
        INFO("status: " << status);
        CHECK(status.find(" " + shell_pid + " ") != std::string::npos);
        CHECK(trim(read_file(dir / "after")) == "after 1"); // released: nothing held
        CHECK_FALSE(held(*server));
    }
}

TEST_CASE("a script that exits without release frees the name", "[e2e][acquire]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r =
        script(*server, dir, R"(out=$("$DLOCK" acquire job) || exit 9; eval "$out")")->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(eventually([&] { return !held(*server); }, 10s));
    auto history = run(*server, {"history", "--json", "job"});
    CHECK(history.out.find("\"event\":\"release\"") != std::string::npos);
}

TEST_CASE("acquire of a held name prints only `exit 75` for eval and exits with the busy status",
          "[e2e][acquire][busy]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    auto sleeper = start_sleeper("60");
    const std::string owner = std::to_string(sleeper->pid());
    auto r = run(*server, {"acquire", "--pid", owner, "job"});
    CHECK(r.exit_code == 75);
    CHECK(r.out == "exit 75\n");
    auto e = run(*server, {"acquire", "--pid", owner, "-E", "1", "job"});
    CHECK(e.exit_code == 1);
    CHECK(e.out == "exit 1\n");
    CHECK(run(*server, {"acquire", "--pid", owner, "--format", "json", "job"}).out.empty());
    // The refusal names the owner's command line, on one line even when it spans several.
    auto multi = script(*server, dir,
                        "\"$DLOCK\" -v acquire job 2> \"$D/busy.err\"\necho \"$?\" > \"$D/busy\"");
    CHECK(multi->wait(30s).exit_code == 0);
    CHECK(trim(read_file(dir / "busy")) == "75");
    const std::string refusal = read_file(dir / "busy.err");
    INFO("refusal: " << refusal);
    CHECK(one_line(refusal));
    CHECK(refusal.find("job is held") != std::string::npos);
    let_go(dir, {holder.get()});
    sleeper->signal(SIGKILL);
}

TEST_CASE("acquire --pid --format json: the owner named, shown by status, released when it dies",
          "[e2e][acquire][json]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("61");
    auto r = run(*server,
                 {"acquire", "--pid", std::to_string(sleeper->pid()), "--format", "json", "job"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.starts_with("{\"DLOCK_NAME\":\"job\","));
    CHECK(r.out.ends_with("}\n"));
    CHECK(lines(r.out).size() == 1);
    for (const char* field :
         {"\"DLOCK_OWNER\":\"", "\"DLOCK_HELD\":\"", "\"DLOCK_FENCING_TOKEN\":\"",
          "\"DLOCK_HOLD\":\"", "\"DLOCK_KEEPER_PID\":\""})
        CHECK(r.out.find(field) != std::string::npos);
    auto status = run(*server, {"status", "job"});
    INFO("status: " << status.out);
    CHECK(status.out.find(std::to_string(sleeper->pid())) != std::string::npos);
    CHECK(status.out.find("sleep 61") != std::string::npos);
    CHECK(held(*server));
    sleeper->signal(SIGKILL);
    sleeper->wait(10s);
    CHECK(eventually([&] { return !held(*server); }, 10s));
}

TEST_CASE("kill -9 of the script frees the name", "[e2e][acquire][kill]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto shell = script(*server, dir, R"(out=$("$DLOCK" acquire job) || exit 9; eval "$out"
echo $$ > "$D/ready"; sleep 60)",
                        "/bin/bash");
    wait_for_line(dir / "ready", 20s);
    REQUIRE(held(*server));
    shell->signal(SIGKILL);
    const auto killed = Clock::now();
    CHECK(eventually([&] { return !held(*server); }, 10s));
    // The typical figure is a few milliseconds (one pidfd wake-up and one release round trip).
    WARN("kill -9 to free: " << since(killed).count() << " ms");
    shell->wait(10s);
}

TEST_CASE("the keeper holds none of the caller's descriptors", "[e2e][acquire][fd]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // fd 7 is the caller's: a keeper that kept it would keep a pipe's reader waiting too.
    auto shell = script(*server, dir, R"(exec 7>"$D/seven"
out=$("$DLOCK" acquire job) || exit 9; eval "$out"
echo "$DLOCK_KEEPER_PID" > "$D/keeper"; sleep 60)");
    const pid_t keeper = std::stoi(wait_for_line(dir / "keeper", 20s));
    CHECK(pid_alive(keeper)); // the substitution returned while the keeper lives
    // Detached (its last step: the move to /), as it may not be yet when acquire printed.
    REQUIRE(eventually(
        [&] {
            return std::filesystem::read_symlink("/proc/" + std::to_string(keeper) + "/cwd") == "/";
        },
        20s));
    const std::string fds = "/proc/" + std::to_string(keeper) + "/fd/";
    for (const auto& entry : std::filesystem::directory_iterator(fds)) {
        const int fd = std::stoi(entry.path().filename().string());
        const std::string target = std::filesystem::read_symlink(entry.path()).string();
        INFO("fd " << fd << " -> " << target);
        if (fd <= 2)
            CHECK(target == "/dev/null");
        else if (target.starts_with("pipe:")) // the guardian's, whose other end it holds
            CHECK(guardian_holds(keeper, target));
        else // its sockets, pidfds, signalfd and eventfd, and its reserve descriptor
            CHECK((target.starts_with("socket:") || target.starts_with("anon_inode:") ||
                   target == "/dev/null"));
    }
    shell->signal(SIGKILL);
    shell->wait(10s);
    CHECK(eventually([&] { return !pid_alive(keeper); }, 10s));
}

TEST_CASE("release twice: the second finds no hold (76), wrong holds are refused",
          "[e2e][acquire][release]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = script(*server, dir, R"(out=$("$DLOCK" acquire job) || exit 9; eval "$out"
"$DLOCK" release; echo "first $?" > "$D/first"
"$DLOCK" release 2> "$D/second.err"; echo "second $?" > "$D/second"
DLOCK_HOLD=not-a-hold "$DLOCK" release 2> "$D/bad.err"; echo "bad $?" > "$D/bad"
unset DLOCK_HOLD; "$DLOCK" release 2> "$D/none.err"; echo "none $?" > "$D/none")")
                 ->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(trim(read_file(dir / "first")) == "first 0");
    CHECK(trim(read_file(dir / "second")) == "second 76");
    CHECK(one_line(read_file(dir / "second.err")));
    CHECK(read_file(dir / "second.err").find("was released already or its keeper died") !=
          std::string::npos);
    CHECK(trim(read_file(dir / "bad")) == "bad 64");
    CHECK(read_file(dir / "bad.err").find("DLOCK_HOLD: not a hold id") != std::string::npos);
    CHECK(trim(read_file(dir / "none")) == "none 64");
    // A well-formed hold that nobody keeps (stale), given with --hold: 76, no Redis needed.
    auto stale = run_raw({"release", "--hold", "0123456789abcdef0123456789abcdef"});
    CHECK(stale.exit_code == 76);
    CHECK(one_line(stale.err));
    auto malformed = run_raw({"release", "--hold", "xyz"});
    CHECK(malformed.exit_code == 64);
}

TEST_CASE("a hold is released only by its user or root", "[e2e][acquire][uid]") {
    if (getuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
        WARN("needs root and setpriv to act as another user: skipped");
        return;
    }
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("62");
    auto r = run(*server, {"acquire", "--pid", std::to_string(sleeper->pid()), "job"});
    REQUIRE(r.exit_code == 0);
    const std::string hold = assigned(r.out, "DLOCK_HOLD");
    auto other = Process({"--reuid=65534", "--regid=65534", "--clear-groups", dlock_binary(),
                          "release", "--hold", hold},
                         clean_env(), "/usr/bin/setpriv")
                     .wait(30s);
    INFO("stderr: " << other.err);
    CHECK(other.exit_code == 64);
    CHECK(other.err.find("only that user or root may release it") != std::string::npos);
    CHECK(held(*server));
    auto own = run_raw({"release", "--hold", hold});
    CHECK(own.exit_code == 0);
    CHECK_FALSE(held(*server));
    sleeper->signal(SIGKILL);
}

TEST_CASE("a lease lost while held signals the script, and release then exits 76",
          "[e2e][acquire][lost]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto shell = script(*server, dir, R"(out=$("$DLOCK" acquire --ttl 3s job) || exit 9
eval "$out"
trap '"$DLOCK" release 2> "$D/release.err"; echo "$?" > "$D/released"; exit 3' TERM
echo ready > "$D/ready"
i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done)");
    wait_for_line(dir / "ready", 20s);
    auto broken = run(*server, {"release", "--force", "job"}, {{"LOGNAME", "alice"}});
    REQUIRE(broken.exit_code == 0);
    // Noticed at the next renewal (TTL/3), signalled before the lease could have expired.
    CHECK(trim(wait_for_line(dir / "released", 30s)) == "76");
    const std::string err = read_file(dir / "release.err");
    CHECK(one_line(err));
    // The keeper tells who broke the lease, as the history recorded the force.
    CHECK(err.find("lost the lease on job while it was held: released by --force by alice@" +
                   this_host() + " (pid ") != std::string::npos);
    auto r = shell->wait(30s);
    CHECK(r.exit_code == 3);
    // Recorded once the script's whole group is gone, the lease released.
    CHECK(eventually(
        [&] {
            return run(*server, {"history", "--json", "job"}).out.find("\"event\":\"lost\"") !=
                   std::string::npos;
        },
        30s));
}

TEST_CASE("run and acquire inside an acquired script re-enter the lock",
          "[e2e][acquire][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = script(*server, dir, R"(out=$("$DLOCK" acquire job) || exit 9; eval "$out"
"$DLOCK" run job -- sh -c 'echo "$DLOCK_FENCING_TOKEN" > "$D/inner"' || exit 7
echo "$DLOCK_FENCING_TOKEN" > "$D/outer"
outer_hold=$DLOCK_HOLD
inner=$("$DLOCK" acquire job) || exit 6
(eval "$inner"; "$DLOCK" release --hold "${DLOCK_HOLD##* }") || exit 5
"$DLOCK" status job > /dev/null || exit 4
DLOCK_HOLD=$outer_hold "$DLOCK" release || exit 3)")
                 ->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir / "inner") == read_file(dir / "outer"));
    CHECK_FALSE(held(*server));
}

TEST_CASE("acquire refuses bad input before Redis, and leaves no keeper when Redis is down",
          "[e2e][acquire][bad-input]") {
    REQUIRE_REDIS(server);
    auto command = run(*server, {"acquire", "job", "--", "true"});
    CHECK(command.exit_code == 64);
    CHECK(command.err.find("acquire takes no command; use dlock run") != std::string::npos);
    CHECK(run(*server, {"acquire", "--pid", "1", "job"}).exit_code == 64);
    CHECK(run(*server, {"acquire", "--pid", "2147483646", "job"}).exit_code == 64);
    CHECK(run(*server, {"acquire", "--format", "yaml", "job"}).exit_code == 64);
    CHECK(dbsize(*server) == 0);

    TempDir dir;
    const std::string name = "down-" + std::to_string(getpid());
    auto down = run_on("unix://" + dir.path() + "/none.sock", {"acquire", name});
    CHECK(down.exit_code == 69);
    CHECK(down.out == "exit 69\n");
    CHECK(processes_with(name).empty());
}

TEST_CASE("acquire --max-run stops the owner, frees the name, and release exits 124",
          "[e2e][acquire][max-run]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto polite = script(*server, dir, R"(out=$("$DLOCK" acquire --max-run 1s job) || exit 9
eval "$out"
trap '"$DLOCK" release 2> "$D/release.err"; echo "$?" > "$D/released"; exit 3' TERM
i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done)");
    CHECK(trim(wait_for_line(dir / "released", 30s)) == "124");
    INFO("release: " << read_file(dir / "release.err"));
    CHECK(read_file(dir / "release.err").find("longer than --max-run 1s") != std::string::npos);
    CHECK(polite->wait(30s).exit_code == 3);
    // Released once the script's whole group is gone.
    CHECK(eventually([&] { return !held(*server); }, 20s));
    auto history = run(*server, {"history", "--json", "job"});
    CHECK(history.out.find("\"event\":\"timeout\"") != std::string::npos);

    // An owner that ignores the stop signal is killed after --kill-after, and the name freed.
    auto stubborn = script(*server, dir, R"(out=$("$DLOCK" acquire --max-run 1s -k 1s job) || exit 9
eval "$out"; trap '' TERM
i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done)");
    auto r = stubborn->wait(30s);
    CHECK(r.term_signal == SIGKILL);
    CHECK(eventually([&] { return !held(*server); }, 10s));
}

TEST_CASE("two releases of one hold at once: one releases, the other finds no hold",
          "[e2e][acquire][release]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("64");
    auto r = run(*server, {"acquire", "--pid", std::to_string(sleeper->pid()), "job"});
    REQUIRE(r.exit_code == 0);
    const std::string hold = assigned(r.out, "DLOCK_HOLD");
    auto first =
        std::make_unique<Process>(std::vector<std::string>{"release", "--hold", hold}, clean_env());
    auto second =
        std::make_unique<Process>(std::vector<std::string>{"release", "--hold", hold}, clean_env());
    std::multiset<int> statuses{first->wait(30s).exit_code, second->wait(30s).exit_code};
    CHECK(statuses == std::multiset<int>{0, 76});
    CHECK_FALSE(held(*server));
    sleeper->signal(SIGKILL);
}

TEST_CASE("a renewal hung on a stalled Redis does not delay the stop signal to the owner",
          "[e2e][acquire][lost]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto shell = script(*server, dir,
                        R"(out=$("$DLOCK" --redis-timeout 5s acquire --ttl 6s -k 2s job) || exit 9
eval "$out"
trap 'echo term > "$D/term"; exit 3' TERM
echo ready > "$D/ready"
i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done)");
    wait_for_line(dir / "ready", 20s);
    // Stopped, the server takes the renewal and never answers: the keeper must still send the
    // stop signal before the lease can expire, leaving the script --kill-after to act on it.
    struct Stalled { // resumed however the test ends
        pid_t pid;
        ~Stalled() { ::kill(pid, SIGCONT); }
    } stalled{server->pid()};
    ::kill(stalled.pid, SIGSTOP);
    auto r = shell->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 3);
    CHECK(trim(read_file(dir / "term")) == "term");
}

TEST_CASE("an acquire that cannot print the hold leaves neither the lock nor a keeper",
          "[e2e][acquire][output]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("64");
    TempDir dir;
    const std::string name = "unprinted-" + std::to_string(getpid());
    auto r = script(*server, dir,
                    "\"$DLOCK\" acquire --ttl 1h --pid " + std::to_string(sleeper->pid()) + " " +
                        name + " > /dev/full")
                 ->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(eventually([&] { return !held(*server, name); }, 30s));
    CHECK(eventually([&] { return processes_with(name).empty(); }, 30s));
    sleeper->signal(SIGKILL);
}

TEST_CASE("a stop signal sent to the keeper goes to the script, which keeps the lock until it "
          "exits",
          "[e2e][acquire][signals]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto shell = script(*server, dir, R"(out=$("$DLOCK" acquire job) || exit 9; eval "$out"
trap 'echo term > "$D/term"' TERM
echo "$DLOCK_KEEPER_PID" > "$D/keeper"
while [ ! -e "$D/go" ]; do sleep 0.1; done
exit 4)");
    const pid_t keeper = std::stoi(trim(wait_for_line(dir / "keeper", 20s)));
    REQUIRE(::kill(keeper, SIGTERM) == 0);
    CHECK(trim(wait_for_line(dir / "term", 20s)) == "term");
    CHECK(held(*server)); // the script lives on: its lock with it
    CHECK(::kill(keeper, 0) == 0);
    write_file(dir / "go", "");
    CHECK(shell->wait(30s).exit_code == 4);
    CHECK(eventually([&] { return !held(*server); }, 10s));
}

TEST_CASE("a lease lost after acquire --max-run's stop makes release exit 76",
          "[e2e][acquire][max-run]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The script ignores the stop signal, so the keeper is still waiting out --kill-after when
    // the lock is broken: whichever the keeper sees first, the loss or the time-up, 76 wins.
    auto shell = script(*server, dir,
                        R"(out=$("$DLOCK" acquire --ttl 15s --max-run 1s -k 5s job) || exit 9
eval "$out"; trap '' TERM
echo "$DLOCK_HOLD" > "$D/hold"
i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done)");
    const std::string hold = trim(wait_for_line(dir / "hold", 20s));
    std::this_thread::sleep_for(1500ms); // past --max-run: the stop signal was sent
    REQUIRE(run(*server, {"release", "--force", "job"}).exit_code == 0);
    // A release while the group is being stopped is answered with what the keeper knows: the
    // time-up (124), then the loss once a renewal has found it (at most TTL/3 later).
    ProcessResult r;
    CHECK(eventually(
        [&] {
            r = run_raw({"release", "--hold", hold});
            return r.exit_code == 76;
        },
        30s));
    INFO("stderr: " << r.err);
    CHECK(r.err.find("lost") != std::string::npos);
    shell->signal(SIGKILL);
}

TEST_CASE("root releases the hold of another user, another user is told whose it is",
          "[e2e][acquire][uid]") {
    if (getuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
        WARN("needs root and setpriv to act as other users: skipped");
        return;
    }
    REQUIRE_REDIS(server);
    const auto as_user = [](const std::string& uid, std::vector<std::string> argv) {
        argv.insert(argv.begin(), {"--reuid=" + uid, "--regid=" + uid, "--clear-groups"});
        return argv;
    };
    auto sleeper = std::make_unique<Process>(as_user("65534", {"/bin/sleep", "62"}), Env{},
                                             "/usr/bin/setpriv");
    REQUIRE(eventually(
        [&] {
            return read_file("/proc/" + std::to_string(sleeper->pid()) + "/cmdline")
                .starts_with("/bin/sleep");
        },
        20s));
    auto r = Process(as_user("65534", {dlock_binary(), "acquire", "--pid",
                                       std::to_string(sleeper->pid()), "job"}),
                     clean_env({{"DLOCK_REDIS_URL", server->tcp_url()}, {"HOME", "/tmp"}}),
                     "/usr/bin/setpriv")
                 .wait(30s);
    INFO("acquire: " << r.err);
    REQUIRE(r.exit_code == 0);
    const std::string hold = assigned(r.out, "DLOCK_HOLD");
    auto stranger = Process(as_user("65533", {dlock_binary(), "release", "--hold", hold}),
                            clean_env(), "/usr/bin/setpriv")
                        .wait(30s);
    INFO("stranger: " << stranger.err);
    CHECK(stranger.exit_code == 64);
    CHECK(stranger.err.find("belongs to another user") != std::string::npos);
    CHECK(held(*server));
    auto root = run_raw({"release", "--hold", hold});
    INFO("root: " << root.err);
    CHECK(root.exit_code == 0);
    CHECK_FALSE(held(*server));
    sleeper->signal(SIGKILL);
}

TEST_CASE("acquire under too low a descriptor limit is refused before Redis",
          "[e2e][acquire][bad-input]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("62");
    TempDir dir;
    auto r = script(*server, dir,
                    "ulimit -n 12 && exec \"$DLOCK\" acquire --pid " +
                        std::to_string(sleeper->pid()) + " job")
                 ->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 64);
    CHECK(r.out == "exit 64\n");
    CHECK(dbsize(*server) == 0);
    sleeper->signal(SIGKILL);
}

TEST_CASE("a keeper out of descriptors answers a release and keeps the lock",
          "[e2e][acquire][release]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("62");
    // A long TTL: no renewal (which would need a new connection) within the test.
    auto r =
        run(*server, {"acquire", "--ttl", "1h", "--pid", std::to_string(sleeper->pid()), "job"});
    REQUIRE(r.exit_code == 0);
    const std::string hold = assigned(r.out, "DLOCK_HOLD");
    const pid_t keeper = std::stoi(assigned(r.out, "DLOCK_KEEPER_PID"));
    const std::string fds = "/proc/" + std::to_string(keeper) + "/fd";
    std::set<int> open_fds;
    // Once the keeper is set up (acquire may print before): detached (in /, the /dev/null it
    // inherited closed), then its reserve open, on /dev/null.
    REQUIRE(eventually(
        [&] {
            open_fds.clear();
            if (std::filesystem::read_symlink("/proc/" + std::to_string(keeper) + "/cwd") != "/")
                return false;
            bool reserve = false;
            for (const auto& entry : std::filesystem::directory_iterator(fds)) {
                const int fd = std::stoi(entry.path().filename().string());
                open_fds.insert(fd);
                reserve = reserve ||
                          (fd > 2 && std::filesystem::read_symlink(entry.path()) == "/dev/null");
            }
            return reserve;
        },
        20s));
    int lowest_free = 0;
    while (open_fds.count(lowest_free) > 0)
        ++lowest_free;
    rlimit before{};
    REQUIRE(prlimit(keeper, RLIMIT_NOFILE, nullptr, &before) == 0);
    // No descriptor left: the connection of a release cannot be accepted as such.
    rlimit none{static_cast<rlim_t>(lowest_free), before.rlim_max};
    REQUIRE(prlimit(keeper, RLIMIT_NOFILE, &none, nullptr) == 0);
    auto refused = run_raw({"release", "--hold", hold});
    INFO("stderr: " << refused.err);
    CHECK(refused.exit_code == 70);
    CHECK(refused.err.find("ran out of file descriptors") != std::string::npos);
    CHECK(held(*server));
    REQUIRE(prlimit(keeper, RLIMIT_NOFILE, &before, nullptr) == 0);
    CHECK(run_raw({"release", "--hold", hold}).exit_code == 0);
    CHECK_FALSE(held(*server));
    sleeper->signal(SIGKILL);
}

TEST_CASE("acquire refuses a thread or a zombie as --pid and refuses a command",
          "[e2e][acquire][bad-input]") {
    REQUIRE_REDIS(server);
    auto command = run(*server, {"acquire", "--", "job"});
    CHECK(command.exit_code == 64);
    CHECK(command.err.find("acquire takes no command") != std::string::npos);

    std::promise<pid_t> tid;
    std::promise<void> done;
    std::thread thread([&] {
        tid.set_value(static_cast<pid_t>(syscall(SYS_gettid)));
        done.get_future().wait();
    });
    auto of_thread =
        run(*server, {"acquire", "--pid", std::to_string(tid.get_future().get()), "job"});
    done.set_value();
    thread.join();
    INFO("thread: " << of_thread.err);
    CHECK(of_thread.exit_code == 64);
    CHECK(of_thread.err.find("a thread of process " + std::to_string(getpid())) !=
          std::string::npos);

    const pid_t zombie = fork();
    if (zombie == 0)
        _exit(0);
    REQUIRE(zombie > 0);
    const std::string status = "/proc/" + std::to_string(zombie) + "/status";
    REQUIRE(
        eventually([&] { return read_file(status).find("State:\tZ") != std::string::npos; }, 20s));
    auto of_zombie = run(*server, {"acquire", "--pid", std::to_string(zombie), "job"});
    waitpid(zombie, nullptr, 0);
    INFO("zombie: " << of_zombie.err);
    CHECK(of_zombie.exit_code == 64);
    CHECK(of_zombie.err.find("has exited") != std::string::npos);
    CHECK(dbsize(*server) == 0);

    auto unforced = run(*server, {"release", "job"});
    CHECK(unforced.exit_code == 64);
    CHECK(unforced.err.find("dlock release alone") != std::string::npos);
}

TEST_CASE("the keeper does not keep the caller's working directory", "[e2e][acquire]") {
    REQUIRE_REDIS(server);
    auto sleeper = start_sleeper("62");
    TempDir dir;
    auto r = script(*server, dir,
                    "cd \"$D\" && exec \"$DLOCK\" acquire --pid " + std::to_string(sleeper->pid()) +
                        " job")
                 ->wait(30s);
    REQUIRE(r.exit_code == 0);
    const std::string keeper = assigned(r.out, "DLOCK_KEEPER_PID");
    // The keeper moves there once forked: acquire may have printed before.
    CHECK(eventually(
        [&] { return std::filesystem::read_symlink("/proc/" + keeper + "/cwd") == "/"; }, 20s));
    CHECK(run_raw({"release", "--hold", assigned(r.out, "DLOCK_HOLD")}).exit_code == 0);
    sleeper->signal(SIGKILL);
}
