// Log output: --log-format json (one valid object per line), --syslog (ident dlock, facility
// user; stderr keeps only the errors), and the same from the environment and config files.

#include "e2e/e2e_helpers.hpp"

#include <regex>
#include <sys/socket.h>
#include <sys/un.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// {"time":"2026-...Z","level":"...","pid":N,"message":"..."} with nothing else on the line.
const std::regex kJsonLine(
    R"re(\{"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","level":"(debug|info|warn|error)","pid":\d+,"message":"([^"\\\x00-\x1f]|\\["\\nrt]|\\u[0-9a-f]{4})*"\})re");

void check_json_lines(const std::string& err) {
    INFO("stderr: " << err);
    CHECK_FALSE(err.empty());
    CHECK(err.back() == '\n');
    for (const auto& line : lines(err)) {
        INFO("line: " << line);
        CHECK(std::regex_match(line, kJsonLine));
    }
}

// A unix datagram socket standing in for /dev/log; collects what syslog(3) sends.
class FakeSyslog {
  public:
    explicit FakeSyslog(std::string path) : path_(std::move(path)) {
        fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        REQUIRE(path_.size() < sizeof addr.sun_path);
        std::copy(path_.begin(), path_.end(), addr.sun_path);
        REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    }
    ~FakeSyslog() { close(fd_); }
    FakeSyslog(const FakeSyslog&) = delete;
    FakeSyslog& operator=(const FakeSyslog&) = delete;

    std::vector<std::string> received() {
        std::vector<std::string> out;
        char buffer[4096];
        for (ssize_t n; (n = recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT)) > 0;)
            out.emplace_back(buffer, static_cast<size_t>(n));
        return out;
    }

  private:
    std::string path_;
    int fd_ = -1;
};

// Runs dlock in a private mount namespace whose /dev/log leads to `log_socket`, so syslog(3)
// talks to the test; returns nullopt when this machine does not allow that (no unshare).
std::optional<ProcessResult> run_with_dev_log(const std::string& log_socket,
                                              const std::vector<std::string>& args,
                                              const TempDir& dir) {
    std::string quoted;
    for (const auto& a : args)
        quoted += " '" + a + "'";
    // A copy of /dev with the few nodes anything here needs, plus log -> the test's socket.
    const std::string inner =
        "set -e; mkdir \"$T/dev\"; for d in null zero random urandom; do "
        "touch \"$T/dev/$d\"; mount --bind \"/dev/$d\" \"$T/dev/$d\"; done; "
        "ln -s \"$LOG\" \"$T/dev/log\"; mount --bind \"$T/dev\" /dev; exec \"$DLOCK\"" +
        quoted;
    const std::string flags = geteuid() == 0 ? "-m" : "-Urm";
    if (Process({"-c", "unshare " + flags + " true"}, clean_env(), "/bin/sh").wait().exit_code != 0)
        return std::nullopt;
    Process p({"-c", "exec unshare " + flags + " sh -c '" + inner + "'"},
              clean_env({{"T", dir.path()}, {"LOG", log_socket}, {"DLOCK", dlock_binary()}}),
              "/bin/sh");
    return p.wait(30s);
}

} // namespace

TEST_CASE("log format json (--log-format): every stderr line is one JSON object", "[e2e][log]") {
    REQUIRE_REDIS(server);
    TempDir dir;

    SECTION("info lines, -vv") {
        auto r = run(*server, {"--log-format", "json", "-vv", "run", "job", "--", "true"});
        CHECK(r.exit_code == 0);
        check_json_lines(r.err);
        CHECK(r.err.find(R"("level":"info","pid":)") != std::string::npos);
        CHECK(r.err.find(R"("message":"acquired job)") != std::string::npos);
    }
    SECTION("a refusal quoting a command with quotes, backslashes and newlines") {
        auto holder = start(*server, {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
                            {{"D", dir.path()}});
        REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
        // -v: where stderr is not a terminal, a skip is logged at info level (for cron).
        auto r = run(*server, {"--log-format", "json", "-v", "run", "job", "--", "echo",
                               "say \"hi\"", "C:\\dir", "two\nlines"});
        CHECK(r.exit_code == 75);
        check_json_lines(r.err);
        CHECK(lines(r.err).size() == 1);
        CHECK(r.err.find(R"("level":"info")") != std::string::npos);
        CHECK(r.err.find(R"(say \"hi\")") != std::string::npos);
        touch(dir / "go");
        CHECK(holder->wait(10s).exit_code == 0);
    }
    SECTION("errors, from the environment or a config file") {
        std::ofstream(dir / "c.conf") << "log-format = json\n";
        for (const Env& env :
             {Env{{"DLOCK_LOG_FORMAT", "json"}}, Env{{"DLOCK_SYSTEM_CONFIG", dir / "c.conf"}}}) {
            auto r = run_raw({"--redis", "unix://" + (dir / "no.sock"), "run", "job", "--", "true"},
                             env);
            CHECK(r.exit_code == 69);
            check_json_lines(r.err);
            CHECK(r.err.find(R"("level":"error")") != std::string::npos);
        }
    }
    SECTION("--log-format text wins over the environment") {
        auto r = run_raw({"--log-format", "text", "--redis", "unix://" + (dir / "no.sock"), "run",
                          "job", "--", "true"},
                         {{"DLOCK_LOG_FORMAT", "json"}});
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
    }
    SECTION("a bad format is a usage error") {
        auto r = run(*server, {"--log-format", "xml", "run", "job", "--", "true"});
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: --log-format: 'xml': expected text or json\n");
        CHECK(dbsize(*server) == 0);
    }
}

TEST_CASE("with --syslog, stderr keeps only the errors", "[e2e][log][syslog]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Whether or not a syslog daemon listens here, the warning leaves stderr and the exit
    // status is unchanged.
    auto holder = start(*server, {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    auto r = run(*server, {"--syslog", "-v", "run", "job", "--", "true"});
    CHECK(r.exit_code == 75);
    CHECK(r.err.empty());
    // --no-syslog wins over the environment.
    r = run(*server, {"--no-syslog", "-v", "run", "job", "--", "true"}, {{"DLOCK_SYSLOG", "1"}});
    CHECK(r.exit_code == 75);
    CHECK(one_dlock_line(r.err));
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);

    r = run_raw({"--syslog", "--redis", "unix://" + (dir / "no.sock"), "run", "job", "--", "true"});
    CHECK(r.exit_code == 69);
    CHECK(one_dlock_line(r.err));
}

TEST_CASE("syslog (--syslog) gets every message through /dev/log as dlock[pid], facility user",
          "[e2e][log][syslog]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    FakeSyslog syslog(dir / "log.sock");

    auto r = run_with_dev_log(
        dir / "log.sock", {"--syslog", "-v", "--redis", server->url(), "run", "job", "--", "true"},
        dir);
    if (!r) {
        WARN("cannot make a private /dev/log here (unshare -m not permitted): skipped");
        return;
    }
    INFO("stderr: " << r->err);
    CHECK(r->exit_code == 0);
    CHECK(r->err.empty());
    auto messages = syslog.received();
    REQUIRE(messages.size() >= 2);
    // <14> is user.info; glibc's format is "<PRI>Mmm dd hh:mm:ss dlock[pid]: message".
    const std::regex info(R"(<14>\w{3} [ \d]\d \d\d:\d\d:\d\d dlock\[\d+\]: acquired job .*)");
    CHECK(std::regex_match(messages[0], info));
    CHECK(messages.back().find("dlock[") != std::string::npos);

    std::filesystem::remove_all(dir / "dev");
    r = run_with_dev_log(
        dir / "log.sock",
        {"--syslog", "--redis", "unix://" + (dir / "no.sock"), "run", "job", "--", "true"}, dir);
    REQUIRE(r);
    CHECK(r->exit_code == 69);
    CHECK(one_dlock_line(r->err));
    messages = syslog.received();
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].rfind("<11>", 0) == 0); // user.err
    CHECK(messages[0].find("dlock[") != std::string::npos);
    CHECK(messages[0].find(trim(r->err.substr(7))) != std::string::npos);
}

TEST_CASE("the line explaining the exit status starts 'dlock: ' at every verbosity", "[e2e][log]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string missing = dir / "missing-command";
    for (const std::string verbosity : {"-q", "-v", "-vv"}) {
        INFO(verbosity);
        auto r = run(*server, {verbosity, "run", "job", "--", missing});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 127);
        const auto all = lines(r.err);
        REQUIRE_FALSE(all.empty());
        CHECK(all.back().starts_with("dlock: "));
        CHECK(all.back().find(missing) != std::string::npos);
        if (verbosity == "-vv") { // the other lines keep the pid and the time
            REQUIRE(all.size() > 1);
            CHECK(all.front().starts_with("dlock["));
            CHECK(all.front().find(" info: acquired job") != std::string::npos);
        }
    }
    // --syslog: stderr has only that line; json: it is a JSON object as every other line.
    auto r = run(*server, {"-vv", "--syslog", "run", "job", "--", missing});
    CHECK(r.exit_code == 127);
    CHECK(one_dlock_line(r.err));
    r = run(*server, {"-vv", "--log-format", "json", "run", "job", "--", missing});
    CHECK(r.exit_code == 127);
    check_json_lines(r.err);
    CHECK(lines(r.err).back().find(R"("level":"error")") != std::string::npos);
}
