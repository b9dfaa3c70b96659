#include "integration/lock_helpers.hpp"
#include "redis/scripts/script_runner.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;

TEST_CASE("a script not cached by Redis falls back to EVAL and gets cached", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    const auto& renew = redis::scripts::renew;
    server->cmd({"SCRIPT", "FLUSH"});
    CHECK(server->cmd({"SCRIPT", "EXISTS", renew.sha1})[0].integer() == 0);

    auto reply = redis::run_script(conn, renew, {job_keys().lock}, {"owner", "1000"});
    REQUIRE(reply);
    CHECK(reply->integer() == 0);
    CHECK(server->cmd({"SCRIPT", "EXISTS", renew.sha1})[0].integer() == 1);
}

TEST_CASE("the lock backend survives a SCRIPT FLUSH between calls", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto first = try_acquire(*backend, request("owner-a", "hold-1"));
    REQUIRE(first.acquired);
    server->cmd({"SCRIPT", "FLUSH"});
    CHECK(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    server->cmd({"SCRIPT", "FLUSH"});
    CHECK(ok(backend->renew({job_keys(), "owner-a", "", 30s})));
    server->cmd({"SCRIPT", "FLUSH"});
    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    server->cmd({"SCRIPT", "FLUSH"});
    ok(backend->leave_queue(job_keys(), "nobody", 3s));
}

TEST_CASE("a cached script runs by SHA-1", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    const auto& renew = redis::scripts::renew;
    server->cmd({"SCRIPT", "LOAD", renew.body});
    server->cmd({"CONFIG", "RESETSTAT"});
    REQUIRE(redis::run_script(conn, renew, {job_keys().lock}, {"owner", "1000"}));
    auto stats = std::string(server->cmd({"INFO", "commandstats"}).str());
    CHECK(stats.find("cmdstat_evalsha:calls=1") != std::string::npos);
    CHECK(stats.find("cmdstat_eval:") == std::string::npos);
}

TEST_CASE("a failing script is an internal error naming the script", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto session = server->session();
    server->cmd({"SET", job_keys().lock, "not a hash"}); // HGET on a string: WRONGTYPE
    auto reply = session.run(redis::scripts::renew, {job_keys().lock}, {"o", "1"});
    REQUIRE_FALSE(reply);
    CHECK(reply.error().fault == dlock::Fault::internal);
    CHECK_FALSE(reply.error().transient);
    CHECK(reply.error().message.starts_with("script renew.lua failed:"));
    CHECK(reply.error().message.find("WRONGTYPE") != std::string::npos);
}

TEST_CASE("pipelined calls answer one by one, and load a script Redis lost", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto a = job_keys("a"), b = job_keys("b"), c = job_keys("c");
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a"), a).acquired);
    REQUIRE(try_acquire(*backend, request("owner-c", "hold-c"), c).acquired);
    server->cmd({"SCRIPT", "FLUSH"});
    server->cmd({"CONFIG", "RESETSTAT"});

    const std::vector<lock::RenewRequest> requests{
        {a, "owner-a", "hold-a", 60s, false},
        {b, "owner-b", "hold-b", 60s, false}, // never taken
        {c, "owner-c", "hold-c", 60s, false},
    };
    auto results = backend->renew(requests);
    REQUIRE(results.size() == 3);
    REQUIRE(results[0]);
    REQUIRE(results[1]);
    REQUIRE(results[2]);
    CHECK(*results[0]);
    CHECK_FALSE(*results[1]);
    CHECK(*results[2]);
    CHECK(pttl(*server, a.lock) > 30'000);
    CHECK(pttl(*server, c.lock) > 30'000);
    // One SCRIPT LOAD, then the three calls again, all by SHA-1.
    const std::string stats(server->cmd({"INFO", "commandstats"}).str());
    CHECK(stats.find("cmdstat_script|load:calls=1,") != std::string::npos);
    CHECK(stats.find("cmdstat_evalsha:calls=6,") != std::string::npos);
    CHECK(stats.find("cmdstat_eval:") == std::string::npos);
}

TEST_CASE("a pipeline on a dead connection fails every call, transiently", "[script_runner]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto a = job_keys("a"), b = job_keys("b");
    server->stop();
    const std::vector<lock::RenewRequest> requests{{a, "owner-a", "", 30s, false},
                                                   {b, "owner-b", "", 30s, false}};
    auto results = backend->renew(requests);
    REQUIRE(results.size() == 2);
    for (const auto& result : results) {
        REQUIRE_FALSE(result);
        CHECK(result.error().transient);
        CHECK(result.error().fault == dlock::Fault::unavailable);
    }
}
