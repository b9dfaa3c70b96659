// --min-replicas N [--replica-timeout D]: WAIT after the acquire and after each renewal, in the
// same round trip. A lease short of N replicas is given back (69) or not extended (renewal).

#include "e2e/e2e_helpers.hpp"
#include "support/sentinel_deployment.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

ProcessResult run_at(const std::string& url, std::vector<std::string> args, Env env = {}) {
    return run_raw(with_redis_url(url, std::move(args)), env);
}

bool has_key(const RedisNode& node, const std::string& k) {
    return node.cmd({"EXISTS", k}).integer() == 1;
}

// What a lease leaves behind on the master once given back: the fencing counter and the
// history, nothing held, nobody queued.
void check_nothing_held(const RedisNode& master, const std::string& name) {
    for (const char* part : {"lock", "queue", "alive", "xqueue", "readers", "sem", "permits"}) {
        INFO(key(name, part));
        CHECK_FALSE(has_key(master, key(name, part)));
    }
}

// Starts a `run --ttl 3s` holder with a 200 ms --replica-timeout and waits until its command
// runs. On a loaded machine the replica's acknowledgement of the acquire can itself take longer
// than 200 ms (the holder then exits 69 at once): start it again, a few times.
std::unique_ptr<Process> start_holder(const std::string& url, const TempDir& dir,
                                      const std::string& script) {
    std::string last_error;
    for (int attempt = 0; attempt < 5; ++attempt) {
        auto holder = std::make_unique<Process>(
            with_redis_url(url, {"--min-replicas", "1", "--replica-timeout", "200ms", "run",
                                 "--ttl", "3s", "job", "-c", script}),
            clean_env({{"D", dir.path()}}));
        if (eventually([&] { return file_exists(dir / "held") || !holder->running(); }) &&
            file_exists(dir / "held"))
            return holder;
        last_error = holder->wait(5s).err;
    }
    FAIL("the holder never ran: " << last_error);
    return nullptr;
}

} // namespace

TEST_CASE("min-replicas: a lease acknowledged by the replica", "[e2e][replicas]") {
    REQUIRE_REPLICATED_PAIR(pair);
    const std::string url = pair->url();
    TempDir dir;
    // Each section starts with the replica connected and caught up: after a section that paused
    // it, a loaded machine can take longer than a --replica-timeout to get it back in step.
    {
        pair->master->cmd({"SET", "dlock-test:sync", "1"});
        INFO("the replica did not catch up within 10 s");
        REQUIRE(pair->master->cmd({"WAIT", "1", "10000"}).integer() == 1);
    }

    SECTION("runs when the replica acknowledges it") {
        auto r = run_at(url, {"--min-replicas", "1", "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        auto sem =
            run_at(url, {"--min-replicas", "1", "sem", "run", "-p", "2", "pool", "--", "true"});
        INFO("stderr: " << sem.err);
        CHECK(sem.exit_code == 0);
    }
    SECTION("more replicas than there are: 69 after the timeout, nothing held") {
        const auto start = Clock::now();
        auto r = run_at(
            url, {"--min-replicas", "2", "--replica-timeout", "300ms", "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        // 1 of 2, or 0 when a loaded machine delays even the one replica past 300 ms.
        CHECK(contains(r.err, " of 2 replicas acknowledged the lock within 300ms"));
        CHECK(since(start) >= 300ms);
        check_nothing_held(*pair->master, "job");
    }
    SECTION("the replica paused: the lock, or the permit, is given back with 69") {
        pair->replica->pause();
        const auto start = Clock::now();
        auto r = run_at(url, {"--min-replicas", "1", "run", "-w", "2s", "job", "--", "true"});
        const auto took = since(start);
        auto sem =
            run_at(url, {"--min-replicas", "1", "sem", "run", "-p", "2", "pool", "--", "true"});
        pair->replica->resume();
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "only 0 of 1 replicas acknowledged the lock within 1s"));
        // A shortfall is transient: given back and tried again until the wait ran out.
        CHECK(took >= 2s);
        CHECK(took < 30s);
        check_nothing_held(*pair->master, "job");
        INFO("sem stderr: " << sem.err);
        CHECK(sem.exit_code == 69);
        CHECK(contains(sem.err, "only 0 of 1 replicas acknowledged the permit"));
        check_nothing_held(*pair->master, "pool");
        CHECK(pair->master->cmd({"ZCARD", key("pool", "permits")}).integer() == 0);
    }
    SECTION("a replica back within the wait: the acquire is tried again and the command runs") {
        pair->master->cmd({"CONFIG", "RESETSTAT"});
        pair->replica->pause();
        auto r = std::make_unique<Process>(
            with_redis_url(url, {"--min-replicas", "1", "--replica-timeout", "300ms", "run", "-w",
                                 "60s", "job", "--", "touch", dir / "ran"}),
            clean_env());
        // At least one acquire fell short (and gave the lock back) before the replica is back.
        REQUIRE(eventually([&] {
            return pair->master->info("commandstats", "cmdstat_wait").find("calls=") !=
                   std::string::npos;
        }));
        std::this_thread::sleep_for(700ms);
        pair->replica->resume();
        auto result = r->wait(60s);
        INFO("stderr: " << result.err);
        CHECK(result.exit_code == 0);
        CHECK(file_exists(dir / "ran"));
        check_nothing_held(*pair->master, "job");
    }
    SECTION("renewals short of the replicas do not extend the lease: 76 past the TTL") {
        auto holder = start_holder(url, dir, "echo $$ > \"$D/held\"; sleep 60");
        pair->replica->pause();
        const auto paused = Clock::now();
        auto r = holder->wait(15s);
        pair->replica->resume();
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 76);
        CHECK(contains(r.err, "only 0 of 1 replicas acknowledged the renewal within 200ms"));
        // Stopped before the lease taken (or last renewed) could expire: within the TTL.
        CHECK(since(paused) < 3500ms);
    }
    SECTION("a replica paused for less than the TTL: the watchdog retries until it is back") {
        auto holder = start_holder(url, dir, "echo $$ > \"$D/held\"; " + kAwaitGo);
        pair->replica->pause();
        std::this_thread::sleep_for(1s);
        pair->replica->resume();
        std::this_thread::sleep_for(3s); // past the TTL: renewed since
        CHECK(holder->running());
        touch(dir / "go");
        auto r = holder->wait(15s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
    SECTION("the server's own min-replicas-to-write refusing the write: 69, not 70") {
        pair->master->cmd({"CONFIG", "SET", "min-replicas-to-write", "2"});
        auto r = run_at(url, {"run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "NOREPLICAS"));
        check_nothing_held(*pair->master, "job");
    }
    SECTION("the replica pointed at directly: 69, it is a replica") {
        auto r = run_at("redis://" + pair->replica->address(),
                        {"--min-replicas", "1", "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "is a replica, not the master"));
    }
}

TEST_CASE("min-replicas: WAIT refused by the server is 69 naming the option", "[e2e][replicas]") {
    SECTION("renamed away") {
        REQUIRE_REDIS_NODE(node, {{"--rename-command", "WAIT", ""}, "", false, ""});
        auto r = run_at("redis://" + node->address(),
                        {"--min-replicas", "1", "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "WAIT, which --min-replicas needs, failed"));
        check_nothing_held(*node, "job");
    }
    SECTION("forbidden by ACL") {
        REQUIRE_REDIS_NODE(node, {});
        node->cmd({"ACL", "SETUSER", "default", "-wait"});
        auto r = run_at("redis://" + node->address(),
                        {"--min-replicas", "1", "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "WAIT, which --min-replicas needs, failed"));
        CHECK(contains(r.err, "NOPERM"));
        check_nothing_held(*node, "job");
    }
}

TEST_CASE("min-replicas and replica-timeout: bad values are 64, nothing sent", "[e2e][replicas]") {
    SilentListener redis;
    const std::string url = "redis://" + redis.address();
    const std::vector<std::vector<std::string>> bad{
        {"--min-replicas", "-1"},      {"--min-replicas", "abc"},   {"--min-replicas", "1001"},
        {"--min-replicas", "1.5"},     {"--min-replicas", ""},      {"--min-replicas", "AUTO"},
        {"--replica-timeout", "0"},    {"--replica-timeout", "0s"}, {"--replica-timeout", "-1s"},
        {"--replica-timeout", "soon"},
    };
    for (const auto& option : bad) {
        INFO(option[0] << " '" << option[1] << "'");
        auto r = run_at(url, {option[0], option[1], "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
    for (const auto& [variable, value] : std::vector<std::pair<std::string, std::string>>{
             {"DLOCK_MIN_REPLICAS", "many"}, {"DLOCK_REPLICA_TIMEOUT", "0ms"}}) {
        INFO(variable << "=" << value);
        auto r = run_at(url, {"run", "job", "--", "true"}, {{variable, value}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(contains(r.err, variable));
    }
    CHECK_FALSE(redis.contacted());
}

TEST_CASE("dlock config shows --min-replicas, --replica-timeout and the sentinel keys",
          "[e2e][replicas]") {
    auto defaults = run_raw({"config"});
    CHECK(defaults.exit_code == 0);
    CHECK(contains(defaults.out, "min-replicas    = auto"));
    CHECK(contains(defaults.out, "replica-timeout = 1s"));
    CHECK(contains(defaults.out, "# sentinel-password is not set"));
    auto set = run_raw({"--min-replicas", "2", "config"},
                       {{"DLOCK_REPLICA_TIMEOUT", "250ms"}, {"DLOCK_SENTINEL_PASSWORD", "s3cret"}});
    CHECK(set.exit_code == 0);
    INFO(set.out);
    CHECK(contains(set.out, "--min-replicas"));
    CHECK(contains(set.out, "replica-timeout = 250ms"));
    CHECK(contains(set.out, "DLOCK_REPLICA_TIMEOUT"));
    CHECK(contains(set.out, "(hidden)"));
    CHECK_FALSE(contains(set.out, "s3cret"));
}
