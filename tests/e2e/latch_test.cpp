// `dlock latch`: create / count-down / wait / status from the outside, against a private
// redis-server.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

ProcessResult latch(const RedisServer& server, std::vector<std::string> args) {
    args.insert(args.begin(), "latch");
    return run(server, args);
}

} // namespace

TEST_CASE("latch create, count-down, wait and status", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    auto r = latch(*server, {"create", "deploy", "2"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(hget(*server, key("deploy", "latch"), "count") == "2");
    CHECK(server->cmd({"PTTL", key("deploy", "latch")}).integer() > 86'000'000);

    r = latch(*server, {"status", "deploy"});
    CHECK(r.exit_code == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 5);
    CHECK(table[0] == "name     deploy");
    CHECK(table[1] == "count    2");
    CHECK(table[2] == "initial  2");
    CHECK(table[3].rfind("ttl      23h", 0) == 0);
    CHECK(table[4] == "waiters  0");

    // Created again from another host: same count, only the TTL is refreshed.
    CHECK(latch(*server, {"count-down", "deploy"}).exit_code == 0);
    CHECK(latch(*server, {"create", "deploy", "2"}).exit_code == 0);
    CHECK(hget(*server, key("deploy", "latch"), "count") == "1");

    r = latch(*server, {"wait", "deploy", "-w", "200ms"});
    CHECK(r.exit_code == 75);

    CHECK(latch(*server, {"count-down", "deploy", "5"}).exit_code == 0);
    CHECK(hget(*server, key("deploy", "latch"), "count") == "0");
    r = latch(*server, {"wait", "deploy"});
    CHECK(r.exit_code == 0);
    CHECK(r.elapsed < 5s);
    CHECK(r.err.empty());
}

TEST_CASE("latch create with a different count is a usage error", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "3", "--ttl", "1h"}).exit_code == 0);
    auto r = latch(*server, {"create", "job", "4"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("already exists with count 3") != std::string::npos);
    CHECK(hget(*server, key("job", "latch"), "initial") == "3");
    CHECK(server->cmd({"PTTL", key("job", "latch")}).integer() <= 3'600'000);
}

TEST_CASE("a latch that reached zero is not created again without --reset", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "2", "--ttl", "1h"}).exit_code == 0);
    REQUIRE(latch(*server, {"count-down", "job", "2"}).exit_code == 0);
    auto r = latch(*server, {"create", "job", "2"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err == "dlock: latch job already reached zero (count 0 of 2): every wait would pass "
                   "at once; start a new round with: dlock latch create --reset job 2\n");
    CHECK(hget(*server, key("job", "latch"), "count") == "0");
    CHECK(server->cmd({"PTTL", key("job", "latch")}).integer() <= 3'600'000);
}

TEST_CASE("a latch reused every day starts a new round with create --reset", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    // Day 1: two jobs count down, the report's wait passes.
    REQUIRE(latch(*server, {"create", "--reset", "daily", "2"}).exit_code == 0);
    REQUIRE(latch(*server, {"count-down", "daily"}).exit_code == 0);
    REQUIRE(latch(*server, {"count-down", "daily"}).exit_code == 0);
    REQUIRE(latch(*server, {"wait", "daily", "-w", "10s"}).exit_code == 0);

    // Day 2: the same create --reset starts over; the wait blocks until two count-downs.
    auto r = run(*server, {"-v", "latch", "create", "--reset", "daily", "2"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == "dlock: latch daily: new round at count 2 (the previous one was at 0 of 2)\n");
    CHECK(hget(*server, key("daily", "latch"), "count") == "2");
    auto waiter = start(*server, {"latch", "wait", "daily", "-w", "60s"});
    REQUIRE(eventually([&] {
        return server->cmd({"ZCARD", key("daily", "latch-waiters")}).integer() == 1;
    }));
    REQUIRE(latch(*server, {"count-down", "daily"}).exit_code == 0);
    std::this_thread::sleep_for(300ms);
    CHECK(waiter->running());
    REQUIRE(latch(*server, {"count-down", "daily"}).exit_code == 0);
    auto w = waiter->wait(30s);
    INFO("waiter stderr: " << w.err);
    CHECK(w.exit_code == 0);
}

TEST_CASE("a waiter blocked when its round is reset waits for the new count", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "3"}).exit_code == 0);
    auto waiter = start(*server, {"latch", "wait", "job", "-w", "60s"});
    REQUIRE(eventually([&] {
        return server->cmd({"ZCARD", key("job", "latch-waiters")}).integer() == 1;
    }));
    REQUIRE(latch(*server, {"create", "--reset", "job", "1"}).exit_code == 0);
    std::this_thread::sleep_for(300ms);
    CHECK(waiter->running());
    REQUIRE(latch(*server, {"count-down", "job"}).exit_code == 0);
    auto w = waiter->wait(30s);
    INFO("waiter stderr: " << w.err);
    CHECK(w.exit_code == 0);
}

TEST_CASE("a background waiter is released promptly when the count reaches zero", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "2"}).exit_code == 0);
    auto first = start(*server, {"latch", "wait", "job", "-w", "10s"});
    auto second = start(*server, {"latch", "wait", "job", "-w", "10s"});
    REQUIRE(eventually([&] {
        return server->cmd({"ZCARD", key("job", "latch-waiters")}).integer() == 2;
    }));
    REQUIRE(latch(*server, {"count-down", "job"}).exit_code == 0);
    std::this_thread::sleep_for(300ms);
    CHECK(first->running());
    CHECK(second->running());

    const auto start_time = Clock::now();
    REQUIRE(latch(*server, {"count-down", "job"}).exit_code == 0);
    auto r1 = first->wait(10s);
    auto r2 = second->wait(10s);
    INFO("stderr: " << r1.err << r2.err);
    CHECK(r1.exit_code == 0);
    CHECK(r2.exit_code == 0);
    CHECK(since(start_time) < 3s);
}

TEST_CASE("latch wait times out with 75 or -E after roughly the wait", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "1"}).exit_code == 0);
    auto r = latch(*server, {"wait", "job", "-w", "1500ms"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(r.elapsed >= 1400ms);
    CHECK(r.elapsed < 6s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("latch job still at 1") != std::string::npos);
    // The timed-out waiter left no registration behind.
    CHECK_FALSE(exists(*server, key("job", "latch-waiters")));

    r = latch(*server, {"wait", "job", "-w", "300ms", "-E", "3"});
    CHECK(r.exit_code == 3);
    r = latch(*server, {"wait", "job", "-w", "0", "--timeout-exit-code", "0"});
    CHECK(r.exit_code == 0);
}

TEST_CASE("a missing latch is 66 for count-down, wait and status", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    for (const auto& args : {std::vector<std::string>{"count-down", "nope"},
                             std::vector<std::string>{"wait", "nope", "-w", "5s"},
                             std::vector<std::string>{"status", "nope"}}) {
        auto r = latch(*server, args);
        INFO(args[0] << " stderr: " << r.err);
        CHECK(r.exit_code == 66);
        CHECK(r.elapsed < 4s);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("no such latch nope") != std::string::npos);
    }
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("a latch that expires during wait says it expired, not that it does not exist",
          "[e2e][latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(latch(*server, {"create", "job", "2", "--ttl", "1s"}).exit_code == 0);
    REQUIRE(latch(*server, {"count-down", "job"}).exit_code == 0);
    auto r = latch(*server, {"wait", "job", "-w", "20s"});
    INFO(r.err);
    CHECK(r.exit_code == 66);
    CHECK(r.elapsed < 5s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err == "dlock: latch job expired while waiting, at count 1 (its TTL ran out or it "
                   "was deleted)\n");
    // Once it is gone, a new wait finds no latch at all.
    r = latch(*server, {"wait", "job", "-w", "1s"});
    CHECK(r.exit_code == 66);
    CHECK(r.err == "dlock: no such latch job\n");
}

TEST_CASE("latch status --json has stable field names", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    auto r = latch(*server, {"status", "job", "--json"});
    CHECK(r.exit_code == 66);
    CHECK(r.out == "{\"name\":\"job\",\"exists\":false,\"count\":0,\"initial\":0,\"ttl_ms\":0,"
                   "\"waiters\":0}\n");

    REQUIRE(latch(*server, {"create", "job", "3", "--ttl", "10m"}).exit_code == 0);
    REQUIRE(latch(*server, {"count-down", "job"}).exit_code == 0);
    auto waiter = start(*server, {"latch", "wait", "job", "-w", "10s"});
    REQUIRE(eventually([&] {
        return server->cmd({"ZCARD", key("job", "latch-waiters")}).integer() == 1;
    }));
    r = latch(*server, {"status", "job", "--json"});
    CHECK(r.exit_code == 0);
    const std::string head =
        "{\"name\":\"job\",\"exists\":true,\"count\":2,\"initial\":3,\"ttl_ms\":";
    REQUIRE(r.out.rfind(head, 0) == 0);
    const auto ttl = std::stoll(r.out.substr(head.size()));
    CHECK(ttl > 590'000);
    CHECK(ttl <= 600'000);
    CHECK(r.out.find(",\"waiters\":1}\n") != std::string::npos);

    REQUIRE(latch(*server, {"count-down", "job", "2"}).exit_code == 0);
    CHECK(waiter->wait(10s).exit_code == 0);
}

TEST_CASE("latch bad input is 64 with one line and writes nothing", "[e2e][latch]") {
    REQUIRE_REDIS(server);
    const std::vector<std::vector<std::string>> cases{
        {"create", "bad name", "1"},
        {"create", "job", "0"},
        {"create", "job", "-1"},
        {"create", "job", "1000000001"},
        {"create", "job", "1.5"},
        {"create", "job", "x"},
        {"create", "job", "2", "--ttl", "soon"},
        {"create", "job", "2", "--ttl", "0"},
        {"create", "job"},
        {"count-down", "job", "0"},
        {"count-down", "job", "abc"},
        {"count-down", "{job}"},
        {"wait", "job", "-w", "later"},
        {"wait", "job", "-E", "256"},
        {"status", ""},
        {"frobnicate", "job"},
    };
    for (const auto& args : cases) {
        auto r = latch(*server, args);
        INFO("args: " << args[0] << " " << (args.size() > 1 ? args[1] : "")
                      << " stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
    CHECK(dbsize(*server) == 0);
}
