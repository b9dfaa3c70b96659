// Connections dropped by the server (CLIENT KILL) while dlock waits: the waiter reconnects and
// still gets the lock promptly when it is released, and a multi-name waiter keeps the names it
// holds. (tests/integration/lock/dropped_connection_test.cpp drops the connection exactly
// between a refusal and the wait; here the binary is only driven from outside.)

#include "e2e/e2e_helpers.hpp"

#include <atomic>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

int64_t queued(const RedisServer& server, const std::string& name) {
    return server.cmd({"ZCARD", key(name, "queue")}).integer();
}

// Kills every client connection but the caller's: the waiter's, the holder's, the watchdogs'.
int64_t kill_clients(const RedisServer& server) {
    return server.cmd({"CLIENT", "KILL", "TYPE", "normal"}).integer();
}

} // namespace

TEST_CASE("a waiter whose connection is killed still gets the lock at the release",
          "[e2e][wait][dropped]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job");
    auto waiter = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return queued(*server, "job") == 1; }));
    std::this_thread::sleep_for(100ms); // blocking on its wake list by now

    CHECK(kill_clients(*server) >= 1);
    // Released while the waiter is (most likely) still reconnecting.
    const auto released = Clock::now();
    touch(dir / "go");
    auto h = holder->wait(10s);
    INFO("holder stderr: " << h.err);
    CHECK(h.exit_code == 0);
    auto r = waiter->wait(15s);
    INFO("waiter stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    // Within a wait round, far from the 30 s of the holder's lease.
    CHECK(since(released) < 3s);
    CHECK(file_exists(dir / "ran"));
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(queued(*server, "job") == 0);
}

TEST_CASE("a multi-name waiter whose connections are killed keeps what it holds",
          "[e2e][multi][wait][dropped]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "b");
    auto waiter =
        start(*server, {"run", "--ttl", "2s", "-w", "30s", "a", "b", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return queued(*server, "b") == 1; }));
    const std::string a_token = hget(*server, key("a"), "fence");
    std::this_thread::sleep_for(800ms); // a's watchdog has renewed it at least once

    CHECK(kill_clients(*server) >= 2);
    // a must survive the lost watchdog connection: it reconnects and renews.
    std::this_thread::sleep_for(2500ms);
    CHECK(hget(*server, key("a"), "fence") == a_token);
    CHECK(waiter->running());

    const auto released = Clock::now();
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
    auto r = waiter->wait(15s);
    INFO("waiter stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(since(released) < 3s);
    CHECK(file_exists(dir / "ran"));
    CHECK(server->cmd({"KEYS", "*:lock"}).size() == 0);
}

TEST_CASE("waiters whose connections are killed again and again all get the lock",
          "[e2e][wait][dropped]") {
    // Every transient error (a connection reset at any script, the first included) is retried
    // within the wait: none of them may end a waiter with 69 while Redis is up.
    REQUIRE_REDIS(server);
    const std::string kind = GENERATE("lock", "permit", "two names", "a password", "database 3");
    INFO(kind);
    std::vector<std::string> args{"run", "-w", "20s", "x", "--", "true"};
    if (kind == "permit")
        args = {"sem", "run", "-p", "2", "-w", "20s", "x", "--", "true"};
    else if (kind == "two names")
        args = {"run", "-w", "20s", "x", "y", "--", "true"};
    std::string url = server->url();
    Env env;
    // With AUTH or SELECT, a connection is set up in two round trips: killed between them, the
    // run must retry too, not take it for an unreachable Redis.
    if (kind == "database 3")
        url += "?db=3";
    server->cmd({"SCRIPT", "FLUSH"}); // the first script of each run may also be an EVAL
    std::atomic<bool> done{false};
    std::atomic<int64_t> kills{0};
    auto conn = server->connect(); // CLIENT KILL skips the caller's own connection
    if (kind == "a password") {
        REQUIRE(conn.command({"CONFIG", "SET", "requirepass", "drop-Secret"}));
        env["DLOCK_REDIS_PASSWORD"] = "drop-Secret";
    }
    std::thread killer([&] {
        // Some 500 kills a second: a connection set up in two round trips (AUTH or SELECT,
        // then the script) must still get through now and then.
        while (!done.load()) {
            if (auto killed = conn.command({"CLIENT", "KILL", "TYPE", "normal"}))
                kills += killed->integer();
            std::this_thread::sleep_for(1ms);
        }
    });
    std::vector<std::unique_ptr<Process>> runs;
    for (int i = 0; i < 20; ++i)
        runs.push_back(start_on(url, args, env));
    int succeeded = 0;
    std::string failures;
    for (auto& r : runs) {
        auto result = r->wait(40s);
        if (result.exit_code == 0)
            ++succeeded;
        else
            failures += "exit " + std::to_string(result.exit_code) + ": " + result.err;
    }
    done = true;
    killer.join();
    INFO(failures);
    CHECK(kills.load() >= 20);
    CHECK(succeeded == 20);
    if (kind == "database 3")
        REQUIRE(conn.command({"SELECT", "3"}));
    for (const char* name : {"x", "y"}) {
        for (const char* part : {"lock", "queue", "permits", "squeue"}) {
            INFO(key(name, part));
            CHECK(conn.command({"EXISTS", key(name, part)})->integer() == 0);
        }
    }
}
