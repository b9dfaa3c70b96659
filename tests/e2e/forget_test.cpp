// `dlock forget NAME...`: a free name's history, run counters, fencing counter and once-per slot
// go in one script, so it leaves metrics and check; a held name and a bad name change nothing.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("forget removes every key a free name left, and the name leaves metrics",
          "[e2e][forget]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "deploy-1", "--", "true"}).exit_code == 0);
    REQUIRE(run(*server, {"run", "--once-per", "1d", "deploy-1", "--", "true"}).exit_code == 0);
    REQUIRE(run(*server, {"run", "keep", "--", "true"}).exit_code == 0);
    REQUIRE(exists(*server, key("deploy-1", "slot")));
    REQUIRE(contains(run(*server, {"metrics"}).out, "name=\"deploy-1\""));

    auto r = run(*server, {"forget", "deploy-1", "never-used"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "forgot deploy-1\nnothing to forget about never-used\n");
    CHECK(r.err.empty());
    CHECK_FALSE(contains(all_keys(*server), "{deploy-1}"));
    CHECK(contains(all_keys(*server), "{keep}"));

    const auto metrics = run(*server, {"metrics"});
    CHECK(metrics.exit_code == 0);
    CHECK_FALSE(contains(metrics.out, "deploy-1"));
    CHECK(contains(metrics.out, "name=\"keep\""));
    CHECK(run(*server, {"history", "deploy-1"}).exit_code == 1);
    // Like a name never used: no success on record.
    CHECK(run(*server, {"check", "deploy-1", "--max-age", "1h"}).exit_code == 2);

    // The name works as before, with a token above the forgotten ones.
    CHECK(run(*server, {"run", "deploy-1", "--", "true"}).exit_code == 0);
}

TEST_CASE("forget refuses a held name in one line and changes nothing", "[e2e][forget]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(run(*server, {"run", "other", "--", "true"}).exit_code == 0);
    auto holder = start_holder(*server, dir, "job");
    const std::string before = all_keys(*server);

    auto r = run(*server, {"forget", "job", "other"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "cannot forget job: its lock is held"));
    CHECK(r.out == "forgot other\n");
    CHECK(contains(all_keys(*server), key("job", "fence")));
    CHECK(contains(all_keys(*server), key("job", "history")));
    CHECK(exists(*server, key("job")));
    CHECK_FALSE(contains(all_keys(*server), "{other}"));
    CHECK(before != all_keys(*server));

    let_go(dir, {holder.get()});
    CHECK(run(*server, {"forget", "job"}).exit_code == 0);
    CHECK(all_keys(*server).empty());
}

TEST_CASE("forget with a bad name exits 64 and changes nothing", "[e2e][forget]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
    const std::string before = all_keys(*server);
    auto r = run(*server, {"forget", "job", "bad{name}"});
    CHECK(r.exit_code == 64);
    CHECK(one_line(r.err));
    CHECK(all_keys(*server) == before);
    CHECK(run(*server, {"forget"}).exit_code == 64);
    CHECK(all_keys(*server) == before);
}
