// `dlock bench` measures against the given Redis, reports stable JSON fields, and cleans up.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("dlock bench --json reports rates, latencies and scripts per handover", "[e2e][bench]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"bench", "--cycles", "50", "-k", "2,4", "--handovers", "20", "--json"},
                 {}, 60s);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    for (const char* field :
         {"\"uncontended\"", "\"cycles_per_s\"", "\"minimal_cycles_per_s\"", "\"ratio\"",
          "\"handover\"", "\"waiters\":2", "\"waiters\":4", "\"p50_ms\"", "\"p99_ms\"",
          "\"max_ms\"", "\"scripts_per_handover\"", "\"round_trips_per_handover\""})
        CHECK(r.out.find(field) != std::string::npos);
    // A handover is a release that hands the lock to the next waiter: about one script (the
    // waiter's acquire that queued it included), whatever K.
    auto per_handover = r.out.find("\"scripts_per_handover\":");
    REQUIRE(per_handover != std::string::npos);
    double scripts = std::stod(r.out.substr(per_handover + 23));
    CHECK(scripts >= 1.0);
    CHECK(scripts < 2.0);
    // Nothing of the bench is left behind but fencing counters, which expire by themselves.
    auto keys = server->cmd({"KEYS", "*"});
    for (size_t i = 0; i < keys.size(); ++i)
        CHECK(std::string(keys[i].str()).ends_with(":fence"));
}

TEST_CASE("dlock bench prints a table by default", "[e2e][bench]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"bench", "--cycles", "20", "-k", "2", "--handovers", "4"}, {}, 60s);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("ratio dlock / minimal") != std::string::npos);
    CHECK(r.out.find("scripts/handover") != std::string::npos);
}

TEST_CASE("dlock bench rejects bad options", "[e2e][bench]") {
    REQUIRE_REDIS(server);
    CHECK(run(*server, {"bench", "--cycles", "0"}).exit_code == 64);
    CHECK(run(*server, {"bench", "-k", "x"}).exit_code == 64);
    CHECK(run(*server, {"bench", "--name", "bad name"}).exit_code == 64);
    CHECK(dbsize(*server) == 0);
}
