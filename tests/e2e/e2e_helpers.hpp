#pragma once

// Shared helpers for the end-to-end tests: they run the built dlock binary against a private
// redis-server (see tests/support) and look at what it did from the outside only.

#include "support/dlock_process.hpp"
#include "support/redis_server.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dlock::test::e2e {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline milliseconds since(Clock::time_point start) {
    return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

// A scratch directory for marker files, removed at the end of the test.
class TempDir {
  public:
    TempDir() {
        char tmpl[] = "/tmp/dlock-e2e-XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

  private:
    std::string path_;
};

// The environment every dlock under test gets: nothing dlock reads is inherited from whoever
// runs the tests (a DLOCK_OWNER there would turn every run into a re-entry), then `extra`.
inline Env clean_env(const Env& extra = {}) {
    Env env;
    // Nor the config files of the machine or of the user running the tests, nor their settings.
    env["DLOCK_SYSTEM_CONFIG"] = env["DLOCK_CONFIG"] = "/dev/null";
    for (const char* name :
         {"DLOCK_REDIS_PASSWORD_FILE", "DLOCK_CONNECT_TIMEOUT", "DLOCK_REDIS_TIMEOUT",
          "DLOCK_TIMEOUT", "DLOCK_LOG_LEVEL", "DLOCK_LOG_FORMAT", "DLOCK_SYSLOG"})
        env[name] = "\x01unset";
    for (const char* name : {"DLOCK_TLS_CA_FILE", "DLOCK_TLS_CA_DIR", "DLOCK_TLS_CERT",
                             "DLOCK_TLS_KEY", "DLOCK_TLS_SERVER_NAME", "DLOCK_TLS_INSECURE"})
        env[name] = "\x01unset";
    for (const char* name :
         {"DLOCK_OWNER", "DLOCK_HELD", "DLOCK_NAME", "DLOCK_FENCING_TOKEN", "DLOCK_FENCING_TOKENS",
          "DLOCK_TTL_MS", "DLOCK_PREFIX", "DLOCK_REDIS_URL", "REDIS_URL", "DLOCK_REDIS_PASSWORD",
          "DLOCK_PERMIT", "DLOCK_HOLD", "DLOCK_KEEPER_PID"})
        env[name] = "\x01unset";
    for (const auto& [k, v] : extra)
        env[k] = v;
    return env;
}

// `dlock --redis URL ARGS...`
inline std::vector<std::string> with_redis_url(const std::string& url,
                                               std::vector<std::string> args) {
    args.insert(args.begin(), {"--redis", url});
    return args;
}

// `dlock --redis <server> ARGS...`
inline std::vector<std::string> with_redis(const RedisServer& server,
                                           std::vector<std::string> args) {
    return with_redis_url(server.url(), std::move(args));
}

// Runs dlock with exactly these arguments (no --redis added) to completion.
inline ProcessResult run_raw(std::vector<std::string> args, const Env& env = {},
                             milliseconds timeout = 30s) {
    return run_dlock(std::move(args), clean_env(env), timeout);
}

// Runs `dlock --redis URL ARGS...` to completion.
inline ProcessResult run_on(const std::string& url, std::vector<std::string> args,
                            const Env& env = {}, milliseconds timeout = 30s) {
    return run_raw(with_redis_url(url, std::move(args)), env, timeout);
}

// Runs dlock against `server` to completion.
inline ProcessResult run(const RedisServer& server, std::vector<std::string> args,
                         const Env& env = {}, milliseconds timeout = 30s) {
    return run_on(server.url(), std::move(args), env, timeout);
}

// Redis's count of connections accepted so far (the INFO query's own connection included).
inline int64_t connections_received(const RedisServer& server) {
    const std::string info(server.cmd({"INFO", "stats"}).str());
    const std::string field = "total_connections_received:";
    const auto at = info.find(field);
    REQUIRE(at != std::string::npos);
    return std::stoll(info.substr(at + field.size()));
}

// stderr that is one line, "dlock: ...\n".
inline bool one_line(const std::string& err) {
    return err.starts_with("dlock: ") && err.find('\n') == err.size() - 1;
}

// Starts `dlock --redis URL ARGS...` in the background.
inline std::unique_ptr<Process> start_on(const std::string& url, std::vector<std::string> args,
                                         const Env& env = {}) {
    return std::make_unique<Process>(with_redis_url(url, std::move(args)), clean_env(env));
}

// Starts dlock against `server` in the background.
inline std::unique_ptr<Process> start(const RedisServer& server, std::vector<std::string> args,
                                      const Env& env = {}) {
    return start_on(server.url(), std::move(args), env);
}

// ---- Redis state -------------------------------------------------------------------------

inline std::string key(const std::string& name, const std::string& suffix = "lock",
                       const std::string& prefix = "dlock") {
    return prefix + ":{" + name + "}:" + suffix;
}

inline int64_t dbsize(const RedisServer& server) {
    return server.cmd({"DBSIZE"}).integer();
}

// All keys, sorted, each followed by a space (for comparisons and failure messages).
inline std::string all_keys(const RedisServer& server) {
    auto reply = server.cmd({"KEYS", "*"});
    std::vector<std::string> keys;
    for (size_t i = 0; i < reply.size(); ++i)
        keys.emplace_back(reply[i].str());
    std::sort(keys.begin(), keys.end());
    std::string out;
    for (const auto& k : keys)
        out += k + " ";
    return out;
}

// ---- files and processes -----------------------------------------------------------------

inline bool file_exists(const std::string& path) {
    return std::filesystem::exists(path);
}

// Writes `text` to `path` with permissions `mode`; returns the path.
inline std::string write_file(const std::string& path, const std::string& text,
                              mode_t mode = 0600) {
    std::ofstream(path) << text;
    chmod(path.c_str(), mode);
    return path;
}

inline void touch(const std::string& path) {
    std::ofstream(path) << "";
}

inline std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// Waits until a file exists with a complete (newline-terminated) first line; returns it.
inline std::string wait_for_line(const std::string& path, milliseconds timeout = 10s) {
    bool ok = eventually(
        [&] {
            auto text = read_file(path);
            return text.find('\n') != std::string::npos;
        },
        timeout);
    INFO("waiting for " << path);
    REQUIRE(ok);
    return trim(read_file(path).substr(0, read_file(path).find('\n')));
}

inline pid_t read_pid(const std::string& path) {
    auto text = wait_for_line(path);
    return static_cast<pid_t>(std::stol(text));
}

// True when `pid` no longer runs: it does not exist, or it is a zombie nobody has reaped yet
// (an orphan's new parent, PID 1 of a container, may never reap it).
inline bool process_gone(pid_t pid) {
    if (kill(pid, 0) != 0 && errno == ESRCH)
        return true;
    auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    if (stat.empty())
        return true;
    auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

// True when `pid` has a child that runs `comm` (that is, it has exec'd). A signal sent to a
// shell's process group while it forks can hit the child between fork and exec, where it still
// has the shell's handlers; tests wait for this before signalling.
inline bool has_child_running(pid_t pid, const std::string& comm) {
    const auto id = std::to_string(pid);
    std::istringstream children(read_file("/proc/" + id + "/task/" + id + "/children"));
    for (pid_t child; children >> child;)
        if (trim(read_file("/proc/" + std::to_string(child) + "/comm")) == comm)
            return true;
    return false;
}

// The shell snippet a command uses to block until the test creates "$D/go".
inline const std::string kAwaitGo = "while [ ! -e \"$D/go\" ]; do sleep 0.02; done";

// Starts `dlock --redis URL run [run_options] NAME -c '...'`, whose command writes its pid to
// $D/NAME.held and its fencing token to $D/token-NAME, then runs until $D/go exists (let_go);
// returns once the command runs.
inline std::unique_ptr<Process> start_holder_on(const std::string& url, const TempDir& dir,
                                                const std::string& name,
                                                std::vector<std::string> run_options = {}) {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), run_options.begin(), run_options.end());
    args.insert(args.end(), {name, "-c",
                             "echo $$ > \"$D/" + name + ".held\"; echo $DLOCK_FENCING_TOKEN > " +
                                 "\"$D/token-" + name + "\"; " + kAwaitGo});
    auto holder = start_on(url, args, {{"D", dir.path()}});
    wait_for_line(dir / (name + ".held"), 20s);
    wait_for_line(dir / ("token-" + name), 20s);
    return holder;
}

// As start_holder_on, on `server`; returns once it holds NAME.
inline std::unique_ptr<Process> start_holder(const RedisServer& server, const TempDir& dir,
                                             const std::string& name = "job",
                                             std::vector<std::string> run_options = {}) {
    auto holder = start_holder_on(server.url(), dir, name, run_options);
    const bool shared =
        std::find(run_options.begin(), run_options.end(), "-s") != run_options.end() ||
        std::find(run_options.begin(), run_options.end(), "--shared") != run_options.end();
    if (!shared) // a shared holder has no lock key
        REQUIRE(exists(server, key(name)));
    return holder;
}

// The fencing token of the holder of `name` started by start_holder.
inline std::string holder_token(const TempDir& dir, const std::string& name = "job") {
    return trim(read_file(dir / ("token-" + name)));
}

// Lets every holder started by start_holder finish, and checks they exit 0.
inline void let_go(const TempDir& dir, std::vector<Process*> holders) {
    touch(dir / "go");
    for (auto* h : holders) {
        auto r = h->wait(15s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
}

// One critical section in a log of sections that write "start PID TOKEN" and "end PID TOKEN"
// ($$ and $DLOCK_FENCING_TOKEN) to it.
struct LoggedSection {
    std::string start_word, start_pid, end_word, end_pid;
    long long start_token = 0, end_token = 0;
};

// Checks that the log at `path` holds `count` sections, each of another process, run one at a
// time (every start followed by its own end) and each with a newer fencing token than the one
// before; returns them.
inline std::vector<LoggedSection> check_sections_in_turn(const std::string& path, size_t count) {
    const auto log = lines(read_file(path));
    INFO("log:\n" << read_file(path));
    REQUIRE(log.size() == 2 * count);
    std::vector<LoggedSection> sections;
    std::set<std::string> pids;
    long long last_token = 0;
    for (size_t i = 0; i < log.size(); i += 2) {
        std::istringstream start_line(log[i]), end_line(log[i + 1]);
        LoggedSection s;
        start_line >> s.start_word >> s.start_pid >> s.start_token;
        end_line >> s.end_word >> s.end_pid >> s.end_token;
        CHECK(s.start_word == "start");
        CHECK(s.end_word == "end");
        CHECK(s.start_pid == s.end_pid);
        CHECK(s.start_token > last_token);
        last_token = s.start_token;
        pids.insert(s.start_pid);
        sections.push_back(s);
    }
    CHECK(pids.size() == count);
    return sections;
}

// `env` output as a map.
inline std::map<std::string, std::string> parse_env(const std::string& text) {
    std::map<std::string, std::string> out;
    for (const auto& line : lines(text)) {
        auto eq = line.find('=');
        if (eq != std::string::npos)
            out[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return out;
}

// For commands that run dlock themselves: $D, $DLOCK_BIN and $URL.
inline Env nested_env(const RedisServer& server, const TempDir& dir) {
    return {{"D", dir.path()}, {"DLOCK_BIN", dlock_binary()}, {"URL", server.url()}};
}

// dlock's stderr is exactly one line starting with "dlock: ".
inline bool one_dlock_line(const std::string& err) {
    return err.rfind("dlock: ", 0) == 0 && err.size() > 8 && err.back() == '\n' &&
           err.find('\n') == err.size() - 1;
}

} // namespace dlock::test::e2e
