// `dlock run --min-hold`: the lock outlives a short command until acquisition + DURATION, so
// a host whose cron fires a little later skips; after the window the name is free again.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("min-hold makes a second run 2 s later skip, then succeed after the window",
          "[e2e][min-hold]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto start_at = Clock::now();
    auto r = run(*server, {"run", "--min-hold", "5s", "job", "--", "touch", dir / "first"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.elapsed < 2s); // dlock does not wait for the window itself
    CHECK(file_exists(dir / "first"));
    CHECK(exists(*server, key("job")));
    // Waiters are not woken early: a -w waiter gets it when the window ends.
    auto waiter = start(*server, {"run", "-w", "20s", "job", "--", "touch", dir / "waiter"});

    std::this_thread::sleep_until(start_at + 2s);
    r = run(*server, {"-v", "run", "job", "--", "touch", dir / "second"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(one_dlock_line(r.err));
    CHECK(contains(r.err, "dlock: job is held by " + this_host()));
    CHECK(contains(r.err, "finished but held until "));
    CHECK(contains(r.err, " by --min-hold; not running touch"));
    CHECK_FALSE(file_exists(dir / "second"));

    auto status = run(*server, {"status", "job"});
    CHECK(status.exit_code == 0);
    CHECK(contains(status.out, "  min-hold  "));
    status = run(*server, {"status", "--wide", "job"});
    CHECK(status.exit_code == 0);
    CHECK(contains(status.out, "finished, held until"));

    auto w = waiter->wait(20s);
    CHECK(w.exit_code == 0);
    CHECK(since(start_at) >= 4500ms);
    CHECK(since(start_at) < 9s);
    r = run(*server, {"run", "job", "--", "touch", dir / "third"});
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "third"));

    auto history = run(*server, {"history", "job", "--json"});
    CHECK(contains(history.out, "\"held_until_ms\":"));
}

TEST_CASE("min-hold is validated before anything is written", "[e2e][min-hold][bad-input]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "--min-hold", "25h", "job", "--", "true"},
             {"run", "--min-hold", "-1s", "job", "--", "true"},
             {"run", "--min-hold", "soon", "job", "--", "true"},
             {"run", "--min-hold", "", "job", "--", "true"},
             {"run", "-s", "--min-hold", "1m", "job", "--", "true"},
         }) {
        auto r = run(*server, args);
        INFO(args[2] << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
    CHECK(dbsize(*server) == 0);
    // 0 and 24h are fine; 0 means no minimum.
    CHECK(run(*server, {"run", "--min-hold", "0", "job", "--", "true"}).exit_code == 0);
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(run(*server, {"run", "--min-hold", "24h", "other", "--", "true"}).exit_code == 0);
    CHECK(server->cmd({"PTTL", key("other")}).integer() > 86'000'000);
}
