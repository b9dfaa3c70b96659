// What users of flock(1) type: `run --timeout D` waits as -w does, durations such as 1m30s,
// and the former global --timeout (the Redis command timeout, now --redis-timeout) is refused
// under each of its names without touching Redis.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

const std::string kRenamed = "(the Redis command timeout; to wait for the lock: dlock run -w "
                             "DURATION, or run --timeout DURATION)";

} // namespace

TEST_CASE("run --timeout waits for the lock, as -w does", "[e2e][busy][wait][flock]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    auto waiter = start(*server, {"run", "--timeout", "1m30s", "job", "--", "touch", dir / "ran"});
    // It queues instead of giving up with 75.
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));
    CHECK(waiter->running());
    CHECK_FALSE(file_exists(dir / "ran"));

    let_go(dir, {holder.get()});
    auto r = waiter->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
}

TEST_CASE("run --timeout gives up as -w does", "[e2e][busy][wait][flock]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "--timeout", "500ms", "job", "--", "touch", dir / "ran"},
             {"run", "--timeout=0.5s", "job", "--", "touch", dir / "ran"}}) {
        auto r = run(*server, args);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 75);
        CHECK(r.err.find("timed out after 500ms waiting for job") != std::string::npos);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
    let_go(dir, {holder.get()});
}

TEST_CASE("compound durations and sem run --timeout are accepted", "[e2e][flock]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "-w", "1m30s", "job", "--", "true"},
             {"run", "--wait", "1h15m", "--ttl", "1m30s", "job", "--", "true"},
             {"run", "--min-hold", "1s500ms", "-k", "2s500ms", "job", "--", "true"},
             {"sem", "run", "--timeout", "2h30m15s", "-p", "2", "pool", "--", "true"},
             {"latch", "create", "--ttl", "1d12h", "daily", "1"},
             {"latch", "count-down", "daily"},
             {"latch", "wait", "-w", "1m30s", "daily"}}) {
        auto r = run(*server, args);
        INFO(args[0] << " " << args[1] << ": " << r.err);
        CHECK(r.exit_code == 0);
    }
}

TEST_CASE("run with -w and --timeout together is refused: they are one option",
          "[e2e][usage][flock]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "-w", "5s", "--timeout", "5s", "job", "--", "true"},
             {"run", "--timeout", "1s", "--wait=forever", "job", "--", "true"},
             {"sem", "run", "-w", "5s", "--timeout", "5s", "-p", "1", "pool", "--", "true"}}) {
        auto r = run(*server, args);
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: -w/--wait and --timeout are the same option (--timeout is flock's "
                       "name): give one\n");
    }
    auto r = run(*server, {"run", "--timeout", "5s", "-n", "job", "--", "true"});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: --no-wait excludes --timeout (see dlock run --help)\n");
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("the former global --timeout, DLOCK_TIMEOUT and timeout key are refused",
          "[e2e][usage][flock]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto config = write_file(dir / "dlock.conf", "timeout = 5s\n");
    const std::vector<std::string> job{"run", "job", "--", "touch", dir / "ran"};
    struct Case {
        std::vector<std::string> before;
        Env env;
        std::string message;
    };
    for (const auto& c : std::vector<Case>{
             {{"--timeout", "5s"}, {}, "global option --timeout was renamed --redis-timeout "},
             {{"--timeout=5s"}, {}, "global option --timeout was renamed --redis-timeout "},
             {{}, {{"DLOCK_TIMEOUT", "5s"}}, "DLOCK_TIMEOUT was renamed DLOCK_REDIS_TIMEOUT "},
             {{}, {{"DLOCK_CONFIG", config}}, config + ":1: timeout was renamed redis-timeout "},
         }) {
        auto args = c.before;
        args.insert(args.end(), job.begin(), job.end());
        auto r = run(*server, args, c.env);
        INFO(r.err);
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: " + c.message + kRenamed + "\n");
        CHECK_FALSE(file_exists(dir / "ran"));
        CHECK(dbsize(*server) == 0);
    }
    // Under every subcommand, not only run.
    auto r = run(*server, {"--timeout", "5s", "status"});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: global option --timeout was renamed --redis-timeout " + kRenamed + "\n");

    // The new names work.
    CHECK(run(*server, {"--redis-timeout", "5s", "run", "job", "--", "true"}).exit_code == 0);
    CHECK(run(*server, {"run", "job", "--", "true"}, {{"DLOCK_REDIS_TIMEOUT", "5s"}}).exit_code ==
          0);
}

TEST_CASE("flock's spellings -e, --nb and --nonblock are accepted as -x and -n",
          "[e2e][busy][flock]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server, {"run", "-e", "job", "--", "touch", dir / "ran"});
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
    auto holder = start_holder(*server, dir);
    for (const char* flag : {"--nb", "--nonblock"}) {
        auto busy = run(*server, {"run", flag, "job", "--", "touch", dir / "second"});
        INFO(flag << ": " << busy.err);
        CHECK(busy.exit_code == 75);
    }
    CHECK_FALSE(file_exists(dir / "second"));
    let_go(dir, {holder.get()});
    auto both = run(*server, {"run", "-e", "-s", "job", "--", "true"});
    CHECK(both.exit_code == 64);
    CHECK(both.err == "dlock: --shared excludes --exclusive\n");
    auto waits = run(*server, {"run", "--nb", "-w", "1s", "job", "--", "true"});
    CHECK(waits.exit_code == 64);
    CHECK(waits.err == "dlock: --no-wait excludes --wait\n");
}

TEST_CASE("flock's -o, -F and -u are explained, not called unexpected", "[e2e][usage][flock]") {
    REQUIRE_REDIS(server);
    const std::vector<std::pair<std::string, std::string>> cases{
        {"-o", "-o is an option of flock(1) that dlock does without: the command never holds a "
               "lock descriptor"},
        {"--close", "--close is an option of flock(1) that dlock does without: "},
        {"-F", "-F is an option of flock(1) that dlock does without: dlock stays as the "
               "command's parent"},
        {"-u", "-u is an option of flock(1) that dlock does without: release the hold of dlock "
               "acquire with dlock release"},
    };
    for (const auto& [flag, message] : cases) {
        auto r = run(*server, {"run", flag, "job", "--", "true"});
        INFO(flag << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(r.err.starts_with("dlock: " + message));
        CHECK(r.err.find('\n') == r.err.size() - 1);
    }
    CHECK(dbsize(*server) == 0);
}
