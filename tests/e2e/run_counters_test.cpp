// The run counters as the built binary leaves them, where one deployment's scripts alone do not
// decide: Redlock, whose waiters poll the members instead of queueing.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The value of counter `field` of `name` on `server` (0 when absent).
int64_t counter(const RedisServer& server, const std::string& name, const std::string& field) {
    const auto v = server.cmd({"HGET", key(name, "runs"), field});
    return v.is_nil() ? 0 : std::stoll(std::string(v.str()));
}

// The number of `skip` events in the history of `name` on `server`.
int64_t skips(const RedisServer& server, const std::string& name) {
    const auto entries = server.cmd({"XRANGE", key(name, "history"), "-", "+"});
    int64_t n = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const auto fields = entries[i][1];
        for (size_t f = 0; f + 1 < fields.size(); f += 2)
            if (fields[f].str() == "event" && fields[f + 1].str() == "skip")
                ++n;
    }
    return n;
}

} // namespace

TEST_CASE("under Redlock a waiter's rounds are no skips: only a wait that runs out is one",
          "[e2e][runs][redlock]") {
    std::vector<std::unique_ptr<RedisServer>> members;
    std::vector<std::string> redis;
    for (int i = 0; i < 3; ++i) {
        members.push_back(RedisServer::start());
        DLOCK_SKIP_UNLESS_STARTED(members.back(), "redis-server", "Redis");
        redis.insert(redis.end(), {"--redis", members.back()->url()});
    }
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.begin(), redis.begin(), redis.end());
        return args;
    };
    TempDir dir;
    Process holder(with({"run", "job", "--", "sh", "-c", "touch \"$0\"; sleep 2", dir / "held"}),
                   clean_env());
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 20s));
    // Waits through many refused rounds, then runs.
    CHECK(run_raw(with({"run", "-w", "30s", "job", "--", "true"})).exit_code == 0);
    CHECK(holder.wait(30s).exit_code == 0);
    for (const auto& m : members) {
        CHECK(counter(*m, "job", "ok") == 2);
        CHECK(counter(*m, "job", "skipped_busy") == 0);
        CHECK(skips(*m, "job") == 0);
    }

    Process again(with({"run", "job", "--", "sh", "-c", "touch \"$0\"; sleep 30", dir / "again"}),
                  clean_env());
    REQUIRE(eventually([&] { return file_exists(dir / "again"); }, 20s));
    CHECK(run_raw(with({"run", "-w", "1s", "job", "--", "true"})).exit_code == 75);
    CHECK(run_raw(with({"run", "-n", "job", "--", "true"})).exit_code == 75);
    again.signal(SIGTERM);
    again.wait(30s);
    for (const auto& m : members) {
        CHECK(counter(*m, "job", "skipped_busy") == 2);
        CHECK(skips(*m, "job") == 2);
    }
}
