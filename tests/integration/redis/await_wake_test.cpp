#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

TEST_CASE("await_wake returns true promptly when a release wakes the waiter", "[await_wake]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});

    const auto start = Clock::now();
    std::thread holder([&] {
        auto other = open_backend(*server);
        std::this_thread::sleep_for(300ms);
        (void)other->release(keys, releasing("owner-h", "hold-h"));
    });
    auto woken = backend->await_wake(keys, "wa", 5s);
    const auto elapsed = elapsed_since(start);
    holder.join();
    REQUIRE(woken);
    CHECK(*woken);
    CHECK(elapsed >= 250ms);
    CHECK(elapsed < 2s);
    CHECK(try_acquire(*backend, waiter("wa")).acquired);
}

TEST_CASE("await_wake returns false after its timeout when nobody wakes it", "[await_wake]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto start = Clock::now();
    auto woken = backend->await_wake(job_keys(), "wa", 300ms);
    const auto elapsed = elapsed_since(start);
    REQUIRE(woken);
    CHECK_FALSE(*woken);
    CHECK(elapsed >= 250ms);
    CHECK(elapsed < 2s);
}

TEST_CASE("a wake-up sent while the waiter was not blocking is not lost", "[await_wake]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0); // nobody is blocking yet

    auto waiter_backend = open_backend(*server); // e.g. after reconnecting
    const auto start = Clock::now();
    auto woken = waiter_backend->await_wake(keys, "wa", 5s);
    REQUIRE(woken);
    CHECK(*woken);
    CHECK(elapsed_since(start) < 1s);
}

TEST_CASE("one wake-up is consumed by one await", "[await_wake]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}, {"wb"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wb")).acquired); // nudges A a second time

    CHECK(ok(backend->await_wake(keys, "wa", 1s)));
    CHECK_FALSE(ok(backend->await_wake(keys, "wa", 100ms)));
}

TEST_CASE("a short await_wake works with a command timeout shorter than the block",
          "[await_wake]") {
    REQUIRE_REDIS(server);
    auto options = connect_options(server->url());
    options.command_timeout = 100ms;
    redis::LockBackend backend(options);
    auto woken = backend.await_wake(job_keys(), "wa", 500ms);
    REQUIRE(woken);
    CHECK_FALSE(*woken);
    // The connection is still usable, with its normal timeout back in place.
    CHECK(try_acquire(backend, request("owner-a", "hold-a")).acquired);
}

TEST_CASE("await_wake with a millisecond timeout returns false", "[await_wake]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto start = Clock::now();
    auto woken = backend->await_wake(job_keys(), "wa", 1ms);
    REQUIRE(woken);
    CHECK_FALSE(*woken);
    CHECK(elapsed_since(start) < 1s);
}

TEST_CASE("await_wake with a zero timeout returns false without blocking", "[await_wake]") {
    // Backend contract: blocks until woken or `timeout` passes. BLPOP's timeout 0 means
    // "forever", so a zero timeout must not be passed through as is.
    REQUIRE_REDIS(server);
    auto options = connect_options(server->url());
    options.command_timeout = 500ms;
    redis::LockBackend backend(options);
    const auto start = Clock::now();
    auto woken = backend.await_wake(job_keys(), "wa", 0ms);
    INFO((woken ? std::string("ok") : woken.error().message));
    CHECK(woken);
    CHECK(elapsed_since(start) < 400ms);
}
