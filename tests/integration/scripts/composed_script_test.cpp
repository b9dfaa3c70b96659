// The composed scripts in the build tree (build/lua/<name>.lua: each lua/*.lua script with its
// lua/lib pieces in it) run alone with `redis-cli --eval`, as their headers and docs/internals.md
// show, and are what Redis caches under the embedded SHA-1s.
#include "integration/lock_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys keys = job_keys();

// `redis-cli --eval build/lua/<name>.lua KEYS , ARGV` against `server`: what it prints (one
// line per reply element when stdout is not a terminal), or nullopt without redis-cli.
std::optional<std::string> redis_cli_eval(const RedisServer& server, const std::string& name,
                                          const std::vector<std::string>& script_keys,
                                          const std::vector<std::string>& args) {
    std::vector<std::string> argv{"-c",
                                  "command -v redis-cli >/dev/null || exit 77; "
                                  "exec redis-cli \"$@\"",
                                  "sh",
                                  "-s",
                                  server.socket_path(),
                                  "--eval",
                                  DLOCK_LUA_BUILD_DIR "/" + name + ".lua"};
    argv.insert(argv.end(), script_keys.begin(), script_keys.end());
    argv.push_back(",");
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = Process(argv, {}, "/bin/sh").wait();
    if (result.exit_code == 77)
        return std::nullopt;
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return result.out;
}

#define REQUIRE_REDIS_CLI(reply) DLOCK_SKIP_UNLESS_STARTED(reply, "redis-cli", "Redis")

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        out.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

const std::vector<std::string> acquire_keys{keys.lock,  keys.fence,  keys.queue,
                                            keys.alive, keys.wake,   keys.readers,
                                            keys.rinfo, keys.xqueue, keys.history};

std::vector<std::string> acquire_args(const std::string& owner, const std::string& hold,
                                      const std::string& waiter) {
    return {owner, hold, "30000", waiter, "3000", "web-1", "4242", "alice", "./job.sh", "x"};
}

} // namespace

TEST_CASE("redis-cli --eval runs the composed lock scripts, wake-ups included", "[composed]") {
    REQUIRE_REDIS(server);
    auto taken = redis_cli_eval(*server, "acquire", acquire_keys, acquire_args("o1", "h1", ""));
    REQUIRE_REDIS_CLI(taken);
    auto reply = lines(*taken);
    REQUIRE(reply.size() == 4); // {1, fencing token, holds, mode}
    CHECK(reply[0] == "1");
    CHECK(reply[2] == "1");
    CHECK(reply[3] == "x");
    CHECK(server->cmd({"XLEN", keys.history}).integer() == 1); // lib/history.lua

    auto refused =
        lines(*redis_cli_eval(*server, "acquire", acquire_keys, acquire_args("o2", "h2", "w2")));
    REQUIRE(refused.size() == 12);
    CHECK(refused[0] == "0");
    CHECK(server->cmd({"ZCARD", keys.queue}).integer() == 1); // queued by lib/waiters.lua

    CHECK(lines(*redis_cli_eval(*server, "renew", {keys.lock, keys.readers, keys.rinfo},
                                {"o1", "60000", "x", ""})) == std::vector<std::string>{"1"});

    // The release wakes the queued waiter (lib/lock_wake.lua).
    auto released = lines(*redis_cli_eval(*server, "release",
                                          {keys.lock, keys.queue, keys.alive, keys.wake,
                                           keys.readers, keys.rinfo, keys.xqueue, keys.history},
                                          {"o1", "h1", "3000", "x", "0", "0"}));
    CHECK(released == std::vector<std::string>{"1", "0"});
    CHECK(llen(*server, keys.wake + "w2") == 1);

    auto left = lines(*redis_cli_eval(
        *server, "leave", {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.xqueue},
        {"w2", "3000"}));
    CHECK(left == std::vector<std::string>{"1"});
    CHECK(server->cmd({"EXISTS", keys.queue, keys.alive, keys.wake + "w2"}).integer() == 0);
}

TEST_CASE("redis-cli --eval runs the composed semaphore scripts, wake-ups included", "[composed]") {
    REQUIRE_REDIS(server);
    const std::vector<std::string> sem_keys{keys.sem,    keys.permits, keys.fence,
                                            keys.squeue, keys.salive,  keys.swake};
    auto taken = redis_cli_eval(*server, "sem_acquire", sem_keys,
                                {"o1", "p1", "30000", "", "3000", "1", "web-1", "1", "u", "c"});
    REQUIRE_REDIS_CLI(taken);
    auto reply = lines(*taken);
    REQUIRE(reply.size() == 3); // {1, fencing token, permits held}
    CHECK(reply[0] == "1");
    CHECK(reply[2] == "1");

    auto queued =
        lines(*redis_cli_eval(*server, "sem_acquire", sem_keys,
                              {"o2", "p2", "30000", "w2", "3000", "1", "web-2", "2", "u", "c"}));
    REQUIRE_FALSE(queued.empty());
    CHECK(queued[0] == "0");

    CHECK(lines(*redis_cli_eval(*server, "sem_renew", {keys.sem, keys.permits},
                                {"o1", "p1", "60000"})) == std::vector<std::string>{"1"});

    // Giving the permit back wakes exactly the waiter now entitled to it (lib/permits.lua).
    auto released = lines(*redis_cli_eval(
        *server, "sem_release", {keys.sem, keys.permits, keys.squeue, keys.salive, keys.swake},
        {"o1", "p1", "", "3000"}));
    CHECK(released == std::vector<std::string>{"1", "0"});
    CHECK(llen(*server, keys.swake + "w2") == 1);
}

TEST_CASE("the composed scripts in the build tree load under their embedded SHA-1", "[composed]") {
    REQUIRE_REDIS(server);
    for (const auto& s : redis::embedded_scripts()) {
        INFO(s.name);
        const auto body = read_file(DLOCK_LUA_BUILD_DIR "/" + std::string(s.name) + ".lua");
        CHECK(server->cmd({"SCRIPT", "LOAD", body}).str() == s.sha1);
    }
}
