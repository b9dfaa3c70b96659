// File descriptors: the command inherits nothing of dlock's (no Redis socket, authenticated or
// not), and a closed stdin/stdout/stderr cannot make a Redis socket take its number.

#include "e2e/e2e_helpers.hpp"

#include <dirent.h>
#include <fstream>
#include <set>
#include <thread>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::set<int> open_fds(pid_t pid) {
    std::set<int> fds;
    const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
    DIR* d = opendir(dir.c_str());
    REQUIRE(d != nullptr);
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.')
            fds.insert(std::stoi(e->d_name));
    closedir(d);
    return fds;
}

// The pid the command wrote, once it has become `sleep` (before that, the shell may still hold
// the descriptors of its `echo > file` redirection) and sleep has started up (before that, its
// loader holds libc or a locale file open): when its descriptors no longer change.
pid_t sleeping_pid(const std::filesystem::path& file) {
    const pid_t pid = read_pid(file);
    const std::string comm = "/proc/" + std::to_string(pid) + "/comm";
    REQUIRE(eventually([&] {
        std::ifstream in(comm);
        std::string name;
        return std::getline(in, name) && name == "sleep";
    }));
    std::set<int> before;
    REQUIRE(eventually([&] {
        auto now = open_fds(pid);
        const bool settled = now == before;
        before = std::move(now);
        std::this_thread::sleep_for(50ms);
        return settled;
    }));
    return pid;
}

// "0 1 2", or with `pid`, what each fd of that process is: "0:/dev/null 1:/tmp/x ...".
std::string show(const std::set<int>& fds, pid_t pid = 0) {
    std::string out;
    for (int fd : fds) {
        out += std::to_string(fd);
        if (pid > 0) {
            std::error_code ec;
            out += ":" + std::filesystem::read_symlink(
                             "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd), ec)
                             .string();
        }
        out += " ";
    }
    return out;
}

// The command records its pid, then becomes a sleep that keeps the fds it was given.
const std::string kRecordFds = "echo $$ > \"$D/pid\"; exec sleep 30";

// The fds a command started by the test harness itself gets: what any caller passes in.
std::set<int> baseline_fds(const TempDir& dir) {
    Process direct({"-c", kRecordFds}, {{"D", dir.path()}}, "/bin/sh");
    const pid_t pid = sleeping_pid(dir / "pid");
    auto fds = open_fds(pid);
    std::filesystem::remove(dir / "pid");
    return fds;
}

} // namespace

TEST_CASE("the command inherits no descriptor of dlock's", "[e2e][fds]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // With a password, as in the report: the inherited socket was authenticated.
    server->cmd({"CONFIG", "SET", "requirepass", "fd-Secret"});
    std::ofstream(dir / "pw") << "fd-Secret\n";
    const auto passed_in = baseline_fds(dir);

    std::vector<std::string> how = GENERATE(
        std::vector<std::string>{"run", "job"}, std::vector<std::string>{"run", "a", "b", "c"},
        std::vector<std::string>{"run", "-s", "job"},
        std::vector<std::string>{"sem", "run", "-p", "2", "pool"});
    std::string shown;
    for (const auto& word : how)
        shown += " " + word;
    INFO("dlock" << shown);
    std::vector<std::string> args{"--password-file", dir / "pw"};
    args.insert(args.end(), how.begin(), how.end());
    args.insert(args.end(), {"-c", kRecordFds});
    auto dlock = start(*server, args, {{"D", dir.path()}});
    const pid_t command = sleeping_pid(dir / "pid");
    const auto fds = open_fds(command);
    INFO("the command's fds: " << show(fds, command)
                               << "; passed in by the harness: " << show(passed_in));
    for (int fd : fds)
        CHECK(passed_in.count(fd) == 1);
    dlock->signal(SIGTERM);
    dlock->wait(10s);
}

TEST_CASE("the command inherits no watchdog connection opened while a later name was awaited",
          "[e2e][fds]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto passed_in = baseline_fds(dir);
    // b is held, so a is held and renewed (TTL 1s: every 333 ms) while dlock waits for b.
    auto holder = start_holder(*server, dir, "b");
    auto dlock = start(*server, {"run", "--ttl", "1s", "-w", "20s", "a", "b", "-c", kRecordFds},
                       {{"D", dir.path()}});
    REQUIRE(eventually([&] { return exists(*server, key("a")); }));
    std::this_thread::sleep_for(1500ms); // several renewals of a
    let_go(dir, {holder.get()});
    const pid_t command = sleeping_pid(dir / "pid");
    const auto fds = open_fds(command);
    INFO("the command's fds: " << show(fds, command) << "; passed in: " << show(passed_in));
    for (int fd : fds)
        CHECK(passed_in.count(fd) == 1);
    dlock->signal(SIGTERM);
    dlock->wait(10s);
}

TEST_CASE("a closed standard descriptor never becomes the Redis connection", "[e2e][fds]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const int closed = GENERATE(0, 1, 2);
    INFO("fd " << closed << " closed when dlock starts");
    // The command writes a Redis command to every standard descriptor; dlock logs with -v.
    const std::string write_all = "for fd in 0 1 2; do printf 'SET injected%s 1\\r\\n' $fd >&$fd "
                                  "2>/dev/null; done; touch \"$D/ran\"";
    Process shell(
        {"-c",
         "exec \"$0\" --redis \"$URL\" -v run job -c \"$CMD\" " + std::to_string(closed) + ">&-",
         dlock_binary()},
        clean_env({{"URL", server->url()}, {"CMD", write_all}, {"D", dir.path()}}), "/bin/sh");
    auto r = shell.wait(20s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
    for (const char* k : {"injected0", "injected1", "injected2"})
        CHECK_FALSE(exists(*server, k));
    CHECK_FALSE(exists(*server, key("job")));
}
