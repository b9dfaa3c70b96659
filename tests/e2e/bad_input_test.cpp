// Usage errors: exit 64, exactly one line on stderr, the command not run, nothing in Redis.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string show(const std::vector<std::string>& args) {
    std::string out;
    for (const auto& a : args)
        out += "[" + a + "] ";
    return out;
}

// Runs `dlock --redis <server> ARGS` and checks it is a clean usage error.
void check_usage_error(const RedisServer& server, const TempDir& dir,
                       const std::vector<std::string>& args, const Env& env = {}) {
    INFO("dlock --redis URL " << show(args));
    auto r = run(server, args, env);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.out.empty());
    CHECK(r.elapsed < 5s);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(dbsize(server) == 0);
    // A failure here must not spill over into the next case.
    std::filesystem::remove(dir / "ran");
    server.cmd({"FLUSHALL"});
}

// `run OPTIONS... NAME -- touch $D/ran`
std::vector<std::string> run_args(const TempDir& dir, std::vector<std::string> options,
                                  const std::string& name = "job") {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {name, "--", "touch", dir / "ran"});
    return args;
}

} // namespace

TEST_CASE("invalid lock names are usage errors", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    for (const std::string& name :
         std::vector<std::string>{"a b", "", std::string(201, 'x'), "{x}", "job}", "a*b",
                                  "tab\there", "caf\xc3\xa9", "semi;colon", "nul\x01byte"})
        check_usage_error(*server, dir, run_args(dir, {}, name));
    // One bad name among several: nothing is taken, not even the valid names before it.
    for (const std::string& name : std::vector<std::string>{"a b", "", "{x}", "a*b"})
        check_usage_error(*server, dir, {"run", "good", "other", name, "--", "touch", dir / "ran"});
    // The longest valid name, and every allowed punctuation character, are fine.
    CHECK(run(*server, {"run", std::string(200, 'x'), "--", "true"}).exit_code == 0);
    CHECK(run(*server, {"run", "A-z_0.9:/@+=-", "--", "true"}).exit_code == 0);
}

TEST_CASE("invalid durations are usage errors", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    for (const std::string bad :
         {"abc", "10x", "-1s", "1s2", "s", "1e3", "1 s", ".", "1.2.3s", "1s "}) {
        check_usage_error(*server, dir, run_args(dir, {"-w", bad}));
        check_usage_error(*server, dir, run_args(dir, {"--ttl", bad}));
        check_usage_error(*server, dir, run_args(dir, {"--kill-after", bad}));
    }
    for (const std::string ttl : {"0", "0s", "0ms", "500ms", "999ms", "24h1s", "25h", "2d"})
        check_usage_error(*server, dir, run_args(dir, {"--ttl", ttl}));
    check_usage_error(*server, dir, {"--connect-timeout", "0", "run", "job", "--", "true"});
    check_usage_error(*server, dir, {"--redis-timeout", "abc", "run", "job", "--", "true"});
}

TEST_CASE("the --kill-after grace must fit in a third of the TTL", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    check_usage_error(*server, dir, run_args(dir, {"-k", "11s"})); // default TTL 30s
    check_usage_error(*server, dir, run_args(dir, {"--ttl", "3s", "-k", "1001ms"}));
    check_usage_error(*server, dir, run_args(dir, {"--ttl", "1m", "--kill-after", "21s"}));
    auto r = run(*server, {"run", "--ttl", "3s", "-k", "1s", "job", "--", "true"});
    CHECK(r.exit_code == 0);
}

TEST_CASE("invalid exit codes and signals are usage errors", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    for (const std::string code : {"300", "256", "-1", "abc", "1.5"})
        check_usage_error(*server, dir, run_args(dir, {"-E", code}));
    for (const std::string signal : {"FOO", "0", "65", "SIG", "-1", "", "TERM2"})
        check_usage_error(*server, dir, run_args(dir, {"--lost-signal", signal}));
}

TEST_CASE("unknown options, missing parts and conflicting options are usage errors",
          "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    check_usage_error(*server, dir, run_args(dir, {"--bogus"}));
    check_usage_error(*server, dir, {"--bogus", "run", "job", "--", "touch", dir / "ran"});
    check_usage_error(*server, dir, {"run", "job"});
    check_usage_error(*server, dir, {"run", "job", "--"});
    check_usage_error(*server, dir, {"run", "job", "-c", ""});
    check_usage_error(*server, dir, {"run", "--", "touch", dir / "ran"});
    check_usage_error(*server, dir, run_args(dir, {"-n", "-w", "1s"}));
    check_usage_error(*server, dir, {});
    check_usage_error(*server, dir, {"frobnicate", "job", "--", "touch", dir / "ran"});
    check_usage_error(*server, dir, {"--prefix", "a b", "run", "job", "--", "touch", dir / "ran"});
    check_usage_error(*server, dir,
                      {"--prefix", std::string(65, 'p'), "run", "job", "--", "touch", dir / "ran"});
    check_usage_error(*server, dir, run_args(dir, {}), {{"DLOCK_PREFIX", "{bad}"}});
    check_usage_error(*server, dir,
                      {"--password-file", dir / "no-such-file", "run", "job", "--", "true"});
}

TEST_CASE("empty option values are usage errors", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // `dlock run -w "$WAIT" ...` with WAIT unset must not silently mean "do not wait", nor
    // `-E "$CODE"` an exit status of 0 for a refusal.
    for (const std::string option : {"-w", "--wait", "--timeout", "--ttl", "-k", "--kill-after",
                                     "-E", "--conflict-exit-code", "--lost-signal"})
        check_usage_error(*server, dir, run_args(dir, {option, ""}));
    for (const std::string option : {"--prefix", "--connect-timeout", "--redis-timeout"})
        check_usage_error(*server, dir, {option, "", "run", "job", "--", "touch", dir / "ran"});
}

TEST_CASE("an empty -E does not turn a refusal into success", "[e2e][usage][busy]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server, {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    auto r = run(*server, {"run", "-E", "", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code == 64);
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
}

TEST_CASE("usage errors stay on one line whatever the input", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Control characters in the input must not break the one-line message.
    check_usage_error(*server, dir, run_args(dir, {}, "new\nline"));
    check_usage_error(*server, dir, run_args(dir, {}, "carriage\rreturn"));
    check_usage_error(*server, dir, run_args(dir, {"-w", "1\ns"}));
    check_usage_error(*server, dir, run_args(dir, {"--ttl", "30\ns"}));
    check_usage_error(*server, dir, run_args(dir, {"--lost-signal", "TERM\nKILL"}));
    check_usage_error(*server, dir, {"--prefix", "a\nb", "run", "job", "--", "touch", dir / "ran"});
}

TEST_CASE("invalid Redis URLs are usage errors", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    for (const std::string& url : std::vector<std::string>{
             "http://localhost", "redis://", "redis://127.0.0.1:0", "redis://127.0.0.1:99999",
             "redis://127.0.0.1:x", "redis://127.0.0.1:", "unix://relative.sock",
             "redis-sentinel://h", "redis://h/abc", "redis://[::1", "localhost:6379",
             "unix://" + server->socket_path() + "?db=x",
             "unix://" + server->socket_path() + "?foo=1"}) {
        INFO("URL " << url);
        auto r = run_raw({"--redis", url, "run", "job", "--", "touch", dir / "ran"});
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("invalid Redis URL") != std::string::npos);
        CHECK_FALSE(file_exists(dir / "ran"));
    }
    // From the environment too.
    auto r = run_raw({"run", "job", "--", "touch", dir / "ran"}, {{"DLOCK_REDIS_URL", "http://x"}});
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    r = run_raw({"run", "job", "--", "touch", dir / "ran"}, {{"REDIS_URL", "ftp://x"}});
    CHECK(r.exit_code == 64);
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("a bad URL's message does not show its password", "[e2e][usage][password]") {
    TempDir dir;
    auto r = run_raw({"--redis", "redis://user:pa55-secret@localhost:0", "run", "job", "--",
                      "touch", dir / "ran"});
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("pa55-secret") == std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
}

TEST_CASE("boundary values are accepted", "[e2e][usage]") {
    REQUIRE_REDIS(server);
    auto ok = [&](std::vector<std::string> options, const std::string& expected_ttl = "") {
        std::vector<std::string> args{"run"};
        args.insert(args.end(), options.begin(), options.end());
        args.insert(args.end(), {"job", "-c", "echo $DLOCK_TTL_MS"});
        auto r = run(*server, args);
        INFO("options: " << show(options) << " stderr: " << r.err);
        CHECK(r.exit_code == 0);
        if (!expected_ttl.empty())
            CHECK(trim(r.out) == expected_ttl);
    };
    ok({"--ttl", "1s"}, "1000");
    ok({"--ttl", "1000ms"}, "1000");
    ok({"--ttl", "1.5s"}, "1500");
    ok({"--ttl", "24h"}, "86400000");
    ok({"--ttl", "1d"}, "86400000");
    ok({"--ttl", "2m"}, "120000");
    ok({"--ttl", "45"}, "45000"); // a bare number is seconds
    ok({"--ttl", "3s", "-k", "1s"});
    ok({"--ttl", "3s", "-k", "0"});
    ok({"-E", "0"});
    ok({"-E", "255"});
    ok({"-w", "0"});
    ok({"-w", "forever"});
    ok({"--wait", "infinity"});
    ok({"-n"});
    for (const std::string signal : {"9", "KILL", "SIGKILL", "sigterm", "HUP", "USR2", "QUIT"})
        ok({"--lost-signal", signal});
}

TEST_CASE("arguments after -- belong to the command, even when they look like options",
          "[e2e][usage]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "job", "--", "echo", "--bogus", "-w", "--", "-c", "x"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "--bogus -w -- -c x\n");
}
