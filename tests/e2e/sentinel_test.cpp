// dlock through a redis-sentinel:// URL, on a deployment that is not failed over: every
// subcommand finds the master; passwords, wrong names, unreachable sentinels and bad URLs give
// their one line and exit status. (Failovers: sentinel_failover_test.cpp.)

#include "e2e/e2e_helpers.hpp"
#include "support/sentinel_deployment.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The passwords of the shared deployment, as a user sets them.
Env passwords(const SentinelDeployment& d) {
    return {{"DLOCK_SENTINEL_PASSWORD", d.options().sentinel_password},
            {"DLOCK_REDIS_PASSWORD", d.options().master_password}};
}

ProcessResult run_on(const SentinelDeployment& d, std::vector<std::string> args, Env env = {}) {
    for (const auto& [k, v] : passwords(d))
        env.emplace(k, v);
    return e2e::run_on(d.url(), std::move(args), env);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("every subcommand works through redis-sentinel://", "[e2e][sentinel]") {
    REQUIRE_SHARED_SENTINEL(d);
    TempDir dir;
    RedisNode& master = d->master();
    const std::string url = d->url();

    SECTION("run takes the lock on the master") {
        auto r = run_on(*d, {"run", "job", "-c", "echo $DLOCK_FENCING_TOKEN"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(std::stoll(trim(r.out)) > 0);
        CHECK(master.cmd({"EXISTS", key("job")}).integer() == 0);
        CHECK(master.cmd({"EXISTS", key("job", "history")}).integer() == 1);
    }
    SECTION("status, history and release --force see the holder") {
        Env env = passwords(*d);
        env["D"] = dir.path();
        auto holder =
            std::make_unique<Process>(with_redis_url(url, {"run", "--ttl", "3s", "held", "-c",
                                                           "echo $$ > \"$D/held\"; " + kAwaitGo}),
                                      clean_env(env));
        wait_for_line(dir / "held");
        REQUIRE(master.cmd({"EXISTS", key("held")}).integer() == 1);

        auto status = run_on(*d, {"status", "held"});
        INFO("status: " << status.out << status.err);
        CHECK(status.exit_code == 0);
        CHECK(contains(status.out, "held"));
        auto history = run_on(*d, {"history", "held"});
        INFO("history: " << history.out << history.err);
        CHECK(history.exit_code == 0);
        CHECK(contains(history.out, "acquire"));

        auto released = run_on(*d, {"release", "--force", "held"});
        INFO("release: " << released.out << released.err);
        CHECK(released.exit_code == 0);
        auto r = holder->wait(15s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 76);
        CHECK(master.cmd({"EXISTS", key("held")}).integer() == 0);
    }
    SECTION("semaphores and latches") {
        auto sem = run_on(*d, {"sem", "run", "-p", "2", "pool", "--", "true"});
        INFO("sem: " << sem.err);
        CHECK(sem.exit_code == 0);
        CHECK(run_on(*d, {"latch", "create", "batch", "2"}).exit_code == 0);
        CHECK(run_on(*d, {"latch", "count-down", "batch"}).exit_code == 0);
        auto status = run_on(*d, {"latch", "status", "batch"});
        CHECK(status.exit_code == 0);
        CHECK(contains(status.out, "1"));
        CHECK(run_on(*d, {"latch", "count-down", "batch"}).exit_code == 0);
        auto waited = run_on(*d, {"latch", "wait", "-w", "5s", "batch"});
        INFO("latch wait: " << waited.err);
        CHECK(waited.exit_code == 0);
    }
    SECTION("the sentinels' password from a file; the master's from the environment") {
        const auto file = write_file(dir / "sentinel-pass", d->options().sentinel_password + "\n");
        auto r =
            run_raw({"--redis", url, "--sentinel-password-file", file, "run", "job", "--", "true"},
                    {{"DLOCK_REDIS_PASSWORD", d->options().master_password}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
    SECTION("without the sentinels' password: 69, naming the setting") {
        auto r = run_raw({"--redis", url, "run", "job", "--", "true"},
                         {{"DLOCK_REDIS_PASSWORD", d->options().master_password}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "requires a password (NOAUTH): set DLOCK_SENTINEL_PASSWORD, "
                              "--sentinel-password-file or the config's "
                              "sentinel-password-file"));
        CHECK_FALSE(contains(r.err, d->options().master_password));
    }
    SECTION("without the master's password: 69, naming the other setting") {
        auto r = run_raw({"--redis", url, "run", "job", "--", "true"},
                         {{"DLOCK_SENTINEL_PASSWORD", d->options().sentinel_password}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "Redis at " + master.address() + " requires a password"));
        CHECK(contains(r.err, "DLOCK_REDIS_PASSWORD"));
        CHECK_FALSE(contains(r.err, d->options().sentinel_password));
    }
    SECTION("a master name the sentinels do not know: 69 at once") {
        const auto start = Clock::now();
        auto r = run_raw({"--redis", d->url("nosuch"), "run", "job", "--", "true"}, passwords(*d));
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(since(start) < 2s);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "no sentinel named the master nosuch"));
        CHECK(contains(r.err, "knows no master named nosuch"));
    }
    SECTION("the master's address is no sentinel URL: the line says so") {
        auto r = run_raw({"--redis", "redis-sentinel://" + master.address() + "#mymaster", "run",
                          "job", "--", "true"},
                         passwords(*d));
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "sentinel " + master.address()));
    }
}

TEST_CASE("Sentinel: --min-replicas auto (the default) waits for the replicas, 0 turns it off",
          "[e2e][sentinel][replicas]") {
    REQUIRE_SHARED_SENTINEL(d);
    RedisNode& master = d->master();
    auto waits = [&] {
        const std::string stats = master.info("commandstats", "cmdstat_wait");
        const auto at = stats.find("calls=");
        return at == std::string::npos ? 0 : std::stoi(stats.substr(at + 6));
    };
    // dlock counts the replicas the sentinels list as replicating, which a sentinel refreshes
    // only every few seconds: wait until the first one it asks lists one.
    REQUIRE(eventually(
        [&] {
            auto replicas =
                d->sentinel(0).cmd({"SENTINEL", "REPLICAS", SentinelDeployment::kMaster});
            for (size_t i = 0; i < replicas.size(); ++i)
                for (size_t f = 0; f + 1 < replicas[i].size(); f += 2)
                    if (replicas[i][f].str() == "master-link-status" &&
                        replicas[i][f + 1].str() == "ok")
                        return true;
            return false;
        },
        30s));
    master.cmd({"CONFIG", "RESETSTAT"});
    auto r = run_on(*d, {"run", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(waits() >= 1); // after the acquire (again after loading the script)

    master.cmd({"CONFIG", "RESETSTAT"});
    r = run_on(*d, {"--min-replicas", "0", "run", "job", "--", "true"});
    CHECK(r.exit_code == 0);
    CHECK(waits() == 0);

    r = run_on(*d, {"config"});
    CHECK(contains(r.out, "min-replicas"));
    CHECK(contains(r.out, "auto"));
}

TEST_CASE("no sentinel reachable: 69 within a short timeout each", "[e2e][sentinel]") {
    SilentListener a, b;
    const std::string url = "redis-sentinel://" + a.address() + "," + b.address() +
                            ",127.0.0.1:" + std::to_string(free_tcp_port()) + "#mymaster";
    const auto start = Clock::now();
    auto r = run_raw({"--redis", url, "--connect-timeout", "5s", "run", "job", "--", "true"});
    const auto took = since(start);
    INFO("stderr: " << r.err << "took " << took.count() << " ms");
    CHECK(r.exit_code == 69);
    CHECK(one_dlock_line(r.err));
    CHECK(contains(r.err, "no sentinel named the master mymaster"));
    // 500 ms for each silent sentinel, at once for the closed port; not 3 x the connect timeout.
    CHECK(took >= 900ms);
    CHECK(took < 3s);
}

TEST_CASE("a sentinel URL without a master name is a usage error, nothing sent",
          "[e2e][sentinel]") {
    SilentListener sentinel;
    for (const std::string& url :
         {"redis-sentinel://" + sentinel.address(), "redis-sentinel://" + sentinel.address() + "#",
          "redis-sentinel://" + sentinel.address() + "?sentinelMasterId="}) {
        INFO(url);
        auto r = run_raw({"--redis", url, "run", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(contains(r.err, "#mymaster"));
        auto env = run_raw({"status"}, {{"DLOCK_REDIS_URL", url}});
        CHECK(env.exit_code == 64);
    }
    CHECK_FALSE(sentinel.contacted());
}
