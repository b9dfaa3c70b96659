#include "cli/option_table.hpp"
#include "config/settings.hpp"
#include "unit/config/fake_env.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using namespace dlock;
using config::File;
using config::FlagValue;
using config::Settings;
using dlock::test::FakeEnv;

namespace {

// The real rows, with their checks.
const config::Options kOptions = cli::global_option_table();

File file(const std::string& path, const std::string& text) {
    return config::parse_file(kOptions, text, path, true).value();
}

} // namespace

TEST_CASE("settings: defaults when nothing is given", "[config]") {
    FakeEnv env;
    auto s = Settings::resolve(kOptions, {}, env.getenv(), {}).value();
    CHECK(s.get("redis").value == "redis://127.0.0.1:6379");
    CHECK(s.get("redis").origin == "default");
    CHECK(s.get("prefix").value == "dlock");
    CHECK(s.get("connect-timeout").value == "2s");
    CHECK(s.get("redis-timeout").value == "2s");
    CHECK(s.get("log-level").value == "warn");
    CHECK(s.get("log-format").value == "text");
    CHECK(s.get("syslog").value == "false");
    CHECK_FALSE(s.get("password").is_set());
    CHECK_FALSE(s.get("password-file").is_set());
}

TEST_CASE("settings: flag > DLOCK_* > user file > system file > REDIS_URL > default", "[config]") {
    const auto user = file("user.conf", "redis = redis://user-file\nprefix = user\n");
    const auto system =
        file("/etc/dlock.conf", "redis = redis://system-file\nprefix = system\nredis-timeout = 5s\n"
                                "syslog = yes\n");
    FakeEnv env{{{"REDIS_URL", "redis://generic"}}};

    auto s = Settings::resolve(kOptions, {}, env.getenv(), {user, system}).value();
    CHECK(s.get("redis").value == "redis://user-file");
    CHECK(s.get("redis").origin == "user.conf:1");
    CHECK(s.get("prefix").origin == "user.conf:2");
    CHECK(s.get("redis-timeout").value == "5s");
    CHECK(s.get("redis-timeout").origin == "/etc/dlock.conf:3");
    CHECK(s.get("syslog").value == "yes");

    // REDIS_URL ranks below the files, above the default.
    CHECK(Settings::resolve(kOptions, {}, env.getenv(), {}).value().get("redis").origin ==
          "REDIS_URL");

    env.vars["DLOCK_REDIS_URL"] = "redis://dlock-env";
    env.vars["DLOCK_REDIS_TIMEOUT"] = "7s";
    s = Settings::resolve(kOptions, {}, env.getenv(), {user, system}).value();
    CHECK(s.get("redis").value == "redis://dlock-env");
    CHECK(s.get("redis").origin == "DLOCK_REDIS_URL");
    CHECK(s.get("redis-timeout").origin == "DLOCK_REDIS_TIMEOUT");

    s = Settings::resolve(kOptions,
                          {{"redis", "redis://flag", "--redis"}, {"log-level", "debug", "-vv"}},
                          env.getenv(), {user, system})
            .value();
    CHECK(s.get("redis").value == "redis://flag");
    CHECK(s.get("redis").origin == "--redis");
    CHECK(s.get("log-level").origin == "-vv");
}

TEST_CASE("settings: an empty variable counts as unset", "[config]") {
    FakeEnv env{{{"DLOCK_PREFIX", ""}, {"DLOCK_REDIS_URL", ""}, {"REDIS_URL", "redis://r"}}};
    auto s = Settings::resolve(kOptions, {}, env.getenv(), {}).value();
    CHECK(s.get("prefix").origin == "default");
    CHECK(s.get("redis").origin == "REDIS_URL");
}

TEST_CASE("settings: bad values from flags and the environment name their origin", "[config]") {
    FakeEnv env{{{"DLOCK_CONNECT_TIMEOUT", "0"}}};
    auto s = Settings::resolve(kOptions, {}, env.getenv(), {});
    REQUIRE_FALSE(s);
    CHECK(s.error().fault == dlock::Fault::bad_input);
    CHECK(s.error().message == "DLOCK_CONNECT_TIMEOUT: must be greater than zero");

    // A flag overriding a bad variable wins without complaint (REDIS_URL may be meant for
    // another program).
    CHECK(Settings::resolve(kOptions, {{"connect-timeout", "1s", "--connect-timeout"}},
                            env.getenv(), {}));
    FakeEnv generic{{{"REDIS_URL", "redis-sentinel://s1,s2"}}}; // no master name
    CHECK(Settings::resolve(kOptions, {{"redis", "redis://h", "--redis"}}, generic.getenv(), {}));
    auto tls = Settings::resolve(kOptions, {}, generic.getenv(), {});
    REQUIRE_FALSE(tls);
    CHECK(tls.error().message.starts_with("REDIS_URL: invalid Redis URL"));

    auto flag = Settings::resolve(kOptions, {{"prefix", "", "--prefix"}}, FakeEnv{}.getenv(), {});
    REQUIRE_FALSE(flag);
    CHECK(flag.error().message.starts_with("--prefix: invalid prefix"));
}

TEST_CASE("settings: a former variable is refused, naming the new one", "[config]") {
    FakeEnv env{{{"DLOCK_TIMEOUT", "5s"}}};
    auto s = Settings::resolve(kOptions, {}, env.getenv(), {});
    REQUIRE_FALSE(s);
    CHECK(s.error().fault == dlock::Fault::bad_input);
    CHECK(s.error().message ==
          "DLOCK_TIMEOUT was renamed DLOCK_REDIS_TIMEOUT (the Redis command timeout; to wait for "
          "the lock: dlock run -w DURATION, or run --timeout DURATION)");
    // Even under the flag: the variable is a setting someone meant, now ignored.
    CHECK_FALSE(Settings::resolve(kOptions, {{"redis-timeout", "1s", "--redis-timeout"}},
                                  env.getenv(), {}));
    // Empty is unset, as for every variable.
    env.vars["DLOCK_TIMEOUT"] = "";
    CHECK(Settings::resolve(kOptions, {}, env.getenv(), {}));
}

TEST_CASE("settings: one password source", "[config]") {
    FakeEnv env;
    const auto both = file("/etc/dlock.conf", "password = a\npassword-file = /pw\n");
    auto s = Settings::resolve(kOptions, {}, env.getenv(), {both});
    REQUIRE_FALSE(s);
    CHECK(s.error().message ==
          "/etc/dlock.conf: password (line 1) and password-file (line 2) are both set; keep one");

    env.vars = {{"DLOCK_REDIS_PASSWORD", "a"}, {"DLOCK_REDIS_PASSWORD_FILE", "/pw"}};
    s = Settings::resolve(kOptions, {}, env.getenv(), {});
    REQUIRE_FALSE(s);
    CHECK(s.error().message ==
          "DLOCK_REDIS_PASSWORD and DLOCK_REDIS_PASSWORD_FILE are both set; keep one");

    // From different places, the higher one wins and the other is dropped.
    env.vars = {{"DLOCK_REDIS_PASSWORD", "from-env"}};
    auto system = file("/etc/dlock.conf", "password-file = /etc/dlock/pw\n");
    auto settings = Settings::resolve(kOptions, {}, env.getenv(), {system}).value();
    CHECK(settings.get("password").value == "from-env");
    CHECK_FALSE(settings.get("password-file").is_set());

    settings = Settings::resolve(kOptions, {{"password-file", "/mine", "--password-file"}},
                                 env.getenv(), {system})
                   .value();
    CHECK(settings.get("password-file").value == "/mine");
    CHECK_FALSE(settings.get("password").is_set());
}

TEST_CASE("settings: where the config files are", "[config]") {
    FakeEnv env{{{"HOME", "/home/ann"}}};
    using config::ConfigPath;
    using Paths = std::vector<ConfigPath>;
    const ConfigPath etc{"/etc/dlock.conf", "", true};
    CHECK(config::config_paths(env.getenv()) == Paths{{"/home/ann/.config/dlock/config", ""}, etc});
    env.vars["XDG_CONFIG_HOME"] = "relative/ignored";
    CHECK(config::config_paths(env.getenv())[0].path == "/home/ann/.config/dlock/config");
    env.vars["XDG_CONFIG_HOME"] = "/xdg";
    CHECK(config::config_paths(env.getenv())[0].path == "/xdg/dlock/config");
    env.vars["DLOCK_CONFIG"] = "/tmp/user.conf";
    env.vars["DLOCK_SYSTEM_CONFIG"] = "/tmp/system.conf";
    CHECK(config::config_paths(env.getenv()) ==
          Paths{{"/tmp/user.conf", "DLOCK_CONFIG"},
                {"/tmp/system.conf", "DLOCK_SYSTEM_CONFIG", true}});
    CHECK(config::config_paths(FakeEnv{}.getenv()) == Paths{etc});
    CHECK(config::config_paths(FakeEnv{}.getenv(), "/opt/dlock.conf") ==
          Paths{{"/opt/dlock.conf", "", true}});
}
