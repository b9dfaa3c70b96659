// Config files and `dlock config`: precedence (flag > DLOCK_* > user file > system file >
// default), errors naming file and line, passwords only in private files, redacted output.

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The line of `dlock config` output for `key`.
std::string config_line(const std::string& out, const std::string& key) {
    for (const auto& line : lines(out))
        if (line.rfind(key + " ", 0) == 0 || line.rfind("# " + key + " ", 0) == 0)
            return line;
    return "";
}

} // namespace

TEST_CASE("dlock config shows each setting and where it came from", "[e2e][config]") {
    TempDir dir;
    const auto system = write_file(dir / "system.conf", "# site settings\n"
                                                        "prefix = site\n"
                                                        "redis-timeout = 5s\n"
                                                        "connect-timeout = 3s\n");
    const auto user = write_file(dir / "user.conf", "\nprefix = mine\n");
    auto r = run_raw(
        {"--connect-timeout", "1s", "config"},
        {{"DLOCK_SYSTEM_CONFIG", system}, {"DLOCK_CONFIG", user}, {"DLOCK_LOG_LEVEL", "info"}});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(config_line(r.out, "redis") ==
          "redis           = redis://127.0.0.1:6379         # default");
    CHECK(config_line(r.out, "prefix")
              .ends_with("= mine                           # " + user + ":2"));
    CHECK(config_line(r.out, "redis-timeout").ends_with("# " + system + ":3"));
    CHECK(config_line(r.out, "connect-timeout").ends_with("# --connect-timeout"));
    CHECK(config_line(r.out, "log-level").ends_with("# DLOCK_LOG_LEVEL"));
    CHECK(config_line(r.out, "password") == "# password is not set");
    CHECK(r.out.find("# config file " + user + "\n") != std::string::npos);
    CHECK(r.out.find("# config file " + system + "\n") != std::string::npos);
}

TEST_CASE("dlock config never shows a password", "[e2e][config][password]") {
    TempDir dir;
    const auto user = write_file(dir / "user.conf", "password = file-Secret1\n");
    auto r = run_raw({"--redis", "redis://app:url-Secret2@db.example:6380/1", "config"},
                     {{"DLOCK_CONFIG", user}});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Secret") == std::string::npos);
    CHECK(
        config_line(r.out, "redis").starts_with("redis           = redis://***@db.example:6380/1"));
    CHECK(config_line(r.out, "password").starts_with("password        = (hidden)"));

    r = run_raw({"config"}, {{"DLOCK_REDIS_PASSWORD", "env-Secret3"}});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Secret") == std::string::npos);
    CHECK(config_line(r.out, "password").ends_with("# DLOCK_REDIS_PASSWORD"));
}

TEST_CASE("the user config is found through XDG_CONFIG_HOME, then HOME", "[e2e][config]") {
    TempDir dir;
    std::filesystem::create_directories(dir / "xdg/dlock");
    std::filesystem::create_directories(dir / "home/.config/dlock");
    write_file(dir / "xdg/dlock/config", "prefix = from-xdg\n");
    write_file(dir / "home/.config/dlock/config", "prefix = from-home\n");
    const Env base{{"DLOCK_CONFIG", "\x01unset"}, {"HOME", dir / "home"}};

    auto env = base;
    env["XDG_CONFIG_HOME"] = dir / "xdg";
    auto r = run_raw({"config"}, env);
    CHECK(r.exit_code == 0);
    CHECK(config_line(r.out, "prefix").ends_with("# " + (dir / "xdg/dlock/config") + ":1"));

    env["XDG_CONFIG_HOME"] = "\x01unset";
    r = run_raw({"config"}, env);
    CHECK(r.exit_code == 0);
    CHECK(
        config_line(r.out, "prefix").ends_with("# " + (dir / "home/.config/dlock/config") + ":1"));
}

TEST_CASE("config errors name file and line, exit 64 and run nothing", "[e2e][config][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto check = [&](const std::string& text, const std::string& message, mode_t mode = 0600) {
        const auto path = write_file(dir / "bad.conf", text, mode);
        for (const auto& config_var : {"DLOCK_SYSTEM_CONFIG", "DLOCK_CONFIG"}) {
            for (const std::vector<std::string>& args :
                 {std::vector<std::string>{"run", "job", "--", "touch", dir / "ran"},
                  std::vector<std::string>{"config"}}) {
                auto r = run(*server, args, {{config_var, path}});
                INFO(config_var << " " << args[0] << ": " << r.err);
                CHECK(r.exit_code == 64);
                CHECK(one_dlock_line(r.err));
                CHECK(r.err == "dlock: " + path + ":" + message + "\n");
                CHECK(r.out.empty());
            }
        }
        CHECK_FALSE(file_exists(dir / "ran"));
        CHECK(dbsize(*server) == 0);
    };
    check("# ok\nprefix = p\nfoo = 1\n",
          "3: unknown key 'foo' (a config file holds the global settings that dlock config lists; "
          "options of run such as --ttl or -w go on its command line)");
    check("prefx = p\n", "1: unknown key 'prefx' (did you mean prefix?)");
    check("redis_timeout = 5s\n", "1: unknown key 'redis_timeout' (did you mean redis-timeout?)");
    check("timeout = 5s\n", "1: timeout was renamed redis-timeout (the Redis command timeout; "
                            "to wait for the lock: dlock run -w DURATION, or run --timeout "
                            "DURATION)");
    check("redis-timeout = 0\n", "1: redis-timeout: must be greater than zero");
    check("syslog = sometimes\n", "1: syslog: 'sometimes': expected true or false");
    check("redis\n", "1: expected key = value: the line has no '='");
    check("password = s3cret\n",
          "1: password in a file that other users can read: chmod o-rwx the file, or use "
          "password-file",
          0644);

    // A file that exists but cannot be read is an error too, not silently skipped.
    auto r = run(*server, {"run", "job", "--", "touch", dir / "ran"},
                 {{"DLOCK_SYSTEM_CONFIG", dir.path()}});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: DLOCK_SYSTEM_CONFIG: cannot read config file " + dir.path() +
                       ": Is a directory\n");
}

TEST_CASE("config file settings reach Redis, under flags and the environment",
          "[e2e][config][redis]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto system = write_file(dir / "system.conf",
                                   "redis = " + server->url() +
                                       "\n"
                                       "prefix = site\n",
                                   0644);
    const auto user = write_file(dir / "user.conf", "prefix = mine\n");
    auto holds_key_under = [&](std::vector<std::string> flags, Env env) {
        env["D"] = dir.path();
        std::vector<std::string> args = std::move(flags);
        args.insert(args.end(), {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo});
        std::filesystem::remove(dir / "ready");
        std::filesystem::remove(dir / "go");
        Process holder(args, clean_env(env));
        REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
        std::string prefix;
        for (const auto& p : {"site", "mine", "env", "flag", "dlock"})
            if (exists(*server, key("job", "lock", p)))
                prefix = p;
        touch(dir / "go");
        auto r = holder.wait(10s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        return prefix;
    };
    CHECK(holds_key_under({}, {{"DLOCK_SYSTEM_CONFIG", system}}) == "site");
    CHECK(holds_key_under({}, {{"DLOCK_SYSTEM_CONFIG", system}, {"DLOCK_CONFIG", user}}) == "mine");
    CHECK(holds_key_under({}, {{"DLOCK_SYSTEM_CONFIG", system},
                               {"DLOCK_CONFIG", user},
                               {"DLOCK_PREFIX", "env"}}) == "env");
    CHECK(holds_key_under({"--prefix", "flag"}, {{"DLOCK_SYSTEM_CONFIG", system},
                                                 {"DLOCK_CONFIG", user},
                                                 {"DLOCK_PREFIX", "env"}}) == "flag");
    // A generic REDIS_URL does not override the configured server.
    CHECK(holds_key_under({}, {{"DLOCK_SYSTEM_CONFIG", system},
                               {"REDIS_URL", "redis://127.0.0.1:1"}}) == "site");
}

TEST_CASE("a password from a private config file authenticates", "[e2e][config][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string password = "cfg-Pa55word";
    server->cmd({"CONFIG", "SET", "requirepass", password});
    write_file(dir / "pw", password + "\n");
    const std::vector<std::string> command{"run", "job", "--", "touch", dir / "ran"};

    SECTION("password") {
        const auto conf = write_file(dir / "c.conf", "password = " + password + "\n", 0640);
        auto r = run(*server, command, {{"DLOCK_CONFIG", conf}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(file_exists(dir / "ran"));
    }
    SECTION("password-file") {
        const auto conf =
            write_file(dir / "c.conf", "password-file = " + (dir / "pw") + "\n", 0644);
        auto r = run(*server, command, {{"DLOCK_SYSTEM_CONFIG", conf}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(file_exists(dir / "ran"));
    }
    SECTION("a missing password-file names where it was configured") {
        const auto conf = write_file(dir / "c.conf", "\npassword-file = " + (dir / "nope") + "\n");
        auto r = run(*server, command, {{"DLOCK_CONFIG", conf}});
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.rfind("dlock: " + conf + ":2: cannot read password file", 0) == 0);
        CHECK_FALSE(file_exists(dir / "ran"));
    }
}

TEST_CASE("a refused password names where it came from, never itself", "[e2e][config][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    server->cmd({"CONFIG", "SET", "requirepass", "right-Pa55word"});
    const std::string wrong = "wrong-Pa55word-xyz";
    const auto pw = write_file(dir / "pw", wrong + "\n", 0600);
    const std::vector<std::string> command{"run", "job", "--", "touch", dir / "ran"};
    // The URL from the environment, the password from somewhere else.
    Env env{{"DLOCK_REDIS_URL", server->url()}};
    std::string expected;

    SECTION("password-file in a config file") {
        const auto conf = write_file(dir / "c.conf", "\npassword-file = " + pw + "\n");
        env["DLOCK_CONFIG"] = conf;
        expected = "refused the password from " + pw + " (password-file in " + conf + ":2): ";
    }
    SECTION("password in a config file") {
        const auto conf = write_file(dir / "c.conf", "password = " + wrong + "\n", 0600);
        env["DLOCK_SYSTEM_CONFIG"] = conf;
        expected = "refused the password from password in " + conf + ":1: ";
    }
    SECTION("DLOCK_REDIS_PASSWORD") {
        env["DLOCK_REDIS_PASSWORD"] = wrong;
        expected = "refused the password from DLOCK_REDIS_PASSWORD: ";
    }
    SECTION("DLOCK_REDIS_PASSWORD_FILE") {
        env["DLOCK_REDIS_PASSWORD_FILE"] = pw;
        expected = "refused the password from " + pw + " (DLOCK_REDIS_PASSWORD_FILE): ";
    }
    SECTION("the URL") {
        env["DLOCK_REDIS_URL"] =
            "redis://:" + wrong + "@127.0.0.1:" + std::to_string(server->port());
        expected = "refused the password from the URL (DLOCK_REDIS_URL): ";
    }
    auto r = run_raw(command, env);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.starts_with("dlock: Redis at "));
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(r.err.find(wrong) == std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
}
