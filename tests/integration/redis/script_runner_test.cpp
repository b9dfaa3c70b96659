#include "integration/lock_helpers.hpp"
#include "redis/script_runner.hpp"

using namespace dlock;
using namespace dlock::test;

TEST_CASE("a script not cached by Redis falls back to EVAL and gets cached", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    const auto& renew = redis::script("renew");
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
    CHECK(ok(backend->renew(job_keys(), "owner-a", 30s)));
    server->cmd({"SCRIPT", "FLUSH"});
    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    server->cmd({"SCRIPT", "FLUSH"});
    ok(backend->leave_queue(job_keys(), "nobody", 3s));
}

TEST_CASE("a cached script runs by SHA-1", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    const auto& renew = redis::script("renew");
    server->cmd({"SCRIPT", "LOAD", renew.body});
    server->cmd({"CONFIG", "RESETSTAT"});
    REQUIRE(redis::run_script(conn, renew, {job_keys().lock}, {"owner", "1000"}));
    auto stats = std::string(server->cmd({"INFO", "commandstats"}).str());
    CHECK(stats.find("cmdstat_evalsha:calls=1") != std::string::npos);
    CHECK(stats.find("cmdstat_eval:") == std::string::npos);
}

TEST_CASE("a failing script is an internal error naming the script", "[script_runner]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    server->cmd({"SET", job_keys().lock, "not a hash"}); // HGET on a string: WRONGTYPE
    auto reply = redis::run_script(conn, redis::script("renew"), {job_keys().lock}, {"o", "1"});
    REQUIRE_FALSE(reply);
    CHECK(reply.error().exit_code == 70);
    CHECK_FALSE(reply.error().transient);
    CHECK(reply.error().message.starts_with("script renew.lua failed:"));
    CHECK(reply.error().message.find("WRONGTYPE") != std::string::npos);
}
