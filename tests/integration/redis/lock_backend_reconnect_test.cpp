#include "integration/lock_helpers.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;

TEST_CASE("the lock backend reconnects after the server restarted", "[lock_backend]") {
    signal(SIGPIPE, SIG_IGN); // as dlock's main() does
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    server->restart(); // no persistence: the lease is gone

    auto first = backend->acquire(job_keys(), request("owner-b", "hold-2"));
    if (!first) {
        CHECK(first.error().fault == dlock::Fault::unavailable);
        CHECK(first.error().transient);
        first = backend->acquire(job_keys(), request("owner-b", "hold-2"));
    }
    REQUIRE(first);
    CHECK(first->acquired);
}

TEST_CASE("lock backend calls fail transiently while the server is down", "[lock_backend]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    server->stop();
    const auto keys = job_keys();
    auto acquired = backend->acquire(keys, request("owner-a", "hold-1"));
    REQUIRE_FALSE(acquired);
    CHECK(acquired.error().transient);
    auto renewed = backend->renew({keys, "owner-a", "", 30s});
    REQUIRE_FALSE(renewed);
    CHECK(renewed.error().transient);
    CHECK(renewed.error().fault == dlock::Fault::unavailable);
    auto released = backend->release(keys, releasing("owner-a", "hold-1"));
    REQUIRE_FALSE(released);
    CHECK(released.error().transient);
    auto woken = backend->await_wake(keys, "wa", 100ms);
    REQUIRE_FALSE(woken);
    CHECK(woken.error().transient);
    auto left = backend->leave_queue(keys, "wa", 3s);
    REQUIRE_FALSE(left);
    CHECK(left.error().transient);
}

TEST_CASE("backend_factory opens a new connection per call", "[lock_backend]") {
    REQUIRE_REDIS(server);
    auto factory = redis::backend_factory(connect_options(server->url()));
    auto a = factory();
    auto b = factory();
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->get() != b->get());
    CHECK(ok((*a)->acquire(job_keys(), request("owner-a", "hold-1"))).acquired);
    CHECK_FALSE(ok((*b)->acquire(job_keys(), request("owner-b", "hold-2"))).acquired);
}

TEST_CASE("backend_factory reports an unreachable server", "[lock_backend]") {
    REQUIRE_REDIS(server);
    const std::string url = server->url();
    server->stop();
    auto factory = redis::backend_factory(connect_options(url));
    auto backend = factory();
    REQUIRE_FALSE(backend);
    CHECK(backend.error().fault == dlock::Fault::unavailable);
    // Never reached: Redis is down or the address wrong, which nobody should retry.
    CHECK_FALSE(backend.error().transient);
}

TEST_CASE("a server never reached fails for good, one reached before transiently",
          "[lock_backend]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    const std::string url = server->url();
    const auto keys = job_keys();
    redis::LockBackend fresh(connect_options(url));
    auto reached = open_backend(*server);
    server->stop();

    auto never = fresh.acquire(keys, request("owner-a", "hold-1"));
    REQUIRE_FALSE(never);
    CHECK(never.error().fault == dlock::Fault::unavailable);
    CHECK_FALSE(never.error().transient);
    for (int i = 0; i < 2; ++i) { // the broken connection, then a failed reconnect
        auto again = reached->acquire(keys, request("owner-a", "hold-1"));
        REQUIRE_FALSE(again);
        CHECK(again.error().fault == dlock::Fault::unavailable);
        CHECK(again.error().transient);
    }
}

TEST_CASE("Redis busy in a slow script is a transient error", "[lock_backend]") {
    // BUSY (like LOADING after a restart) passes: retried like a reset connection.
    REQUIRE_REDIS(server);
    server->cmd({"CONFIG", "SET", "busy-reply-threshold", "100"});
    auto backend = open_backend(*server);
    std::thread slow([&] {
        auto conn = server->connect();
        (void)conn.command({"EVAL",
                            "local t = redis.call('TIME') local stop = t[1] + 2 "
                            "while tonumber(redis.call('TIME')[1]) < stop do end return 1",
                            "0"});
    });
    std::this_thread::sleep_for(300ms); // past the threshold: Redis answers BUSY
    auto busy = backend->acquire(job_keys(), request("owner-a", "hold-1"));
    const auto woken = backend->await_wake(job_keys(), "w", 10ms);
    server->cmd({"SCRIPT", "KILL"});
    slow.join();
    REQUIRE_FALSE(busy);
    CHECK(busy.error().fault == dlock::Fault::unavailable);
    CHECK(busy.error().transient);
    CHECK(busy.error().message.find("BUSY") != std::string::npos);
    REQUIRE_FALSE(woken);
    CHECK(woken.error().transient);
    CHECK(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
}
