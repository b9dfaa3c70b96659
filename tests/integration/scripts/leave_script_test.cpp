#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {
using Strings = std::vector<std::string>;
}

TEST_CASE("leave_queue removes the waiter from queue and heartbeats", "[leave.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}, {"wb"}});

    ok(backend->leave_queue(keys, "wa", 3s));
    CHECK(zrange(*server, keys.queue) == Strings{"wb"});
    CHECK(zrange(*server, keys.alive) == Strings{"wb"});
    CHECK_FALSE(exists(*server, keys.wake + "wb")); // held: nobody to wake
    CHECK(hget(*server, keys.lock, "owner") == "owner-h");
}

TEST_CASE("a departing head passes the wake-up on when the lock is free", "[leave.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}, {"wb"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    REQUIRE(llen(*server, keys.wake + "wa") == 1);

    ok(backend->leave_queue(keys, "wa", 3s));
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
    CHECK(llen(*server, keys.wake + "wb") == 1);
    CHECK(pttl(*server, keys.wake + "wb") > 0);
    CHECK(try_acquire(*backend, waiter("wb")).acquired);
}

TEST_CASE("leaving skips lapsed waiters when passing the wake-up on", "[leave.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 10s}, {"wb", 200ms}, {"wc", 10s}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    std::this_thread::sleep_for(400ms); // B lapses

    ok(backend->leave_queue(keys, "wa", 3s));
    CHECK_FALSE(exists(*server, keys.wake + "wb"));
    CHECK(llen(*server, keys.wake + "wc") == 1);
    // A's grant was given back and handed to C.
    CHECK(zrange(*server, keys.queue).empty());
    CHECK(hget(*server, keys.lock, "owner") == "owner-wc");
}

TEST_CASE("leaving when not queued changes nothing", "[leave.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    ok(backend->leave_queue(keys, "nobody", 3s));
    CHECK(zrange(*server, keys.queue) == Strings{"wa"});
    CHECK(hget(*server, keys.lock, "owner") == "owner-h");
    ok(backend->leave_queue(job_keys("empty"), "nobody", 3s));
}

TEST_CASE("the last waiter leaving a free lock leaves no keys behind", "[leave.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    ok(backend->leave_queue(keys, "wa", 3s));
    for (const auto& key : {keys.lock, keys.queue, keys.alive, keys.wake + "wa"}) {
        INFO(key);
        CHECK_FALSE(exists(*server, key));
    }
}
