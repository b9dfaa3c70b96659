#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

using Strings = std::vector<std::string>;

// The holder "owner-h" holds the lock; waiters A, B, C queue in that order.
void hold_and_queue_abc(lock::Backend& backend, const RedisServer& server) {
    REQUIRE(try_acquire(backend, request("owner-h", "hold-h")).acquired);
    int64_t expected_waiters = 0;
    for (auto id : {"wa", "wb", "wc"}) {
        auto out = try_acquire(backend, waiter(id));
        REQUIRE_FALSE(out.acquired);
        CHECK(out.waiters == ++expected_waiters);
    }
    REQUIRE(zrange(server, job_keys().queue) == Strings{"wa", "wb", "wc"});
}

} // namespace

TEST_CASE("waiters queue in arrival order", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    // Ids in reverse alphabetical order, so only the arrival time can explain the order.
    for (auto id : {"wz", "wy", "wx"})
        REQUIRE_FALSE(try_acquire(*backend, waiter(id)).acquired);
    CHECK(zrange(*server, job_keys().queue) == Strings{"wz", "wy", "wx"});
}

TEST_CASE("asking again keeps a waiter's place in the queue", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    hold_and_queue_abc(*backend, *server);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wb")).acquired);
    CHECK(zrange(*server, job_keys().queue) == Strings{"wa", "wb", "wc"});
}

TEST_CASE("the last release wakes only the queue head", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);

    CHECK(release_hold(*backend, "owner-h", "hold-h") == 0);
    CHECK(llen(*server, keys.wake + "wa") == 1);
    CHECK_FALSE(exists(*server, keys.wake + "wb"));
    CHECK_FALSE(exists(*server, keys.wake + "wc"));
}

TEST_CASE("a release that leaves holds wakes nobody", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h2")).holds == 2);
    CHECK(release_hold(*backend, "owner-h", "hold-h2") == 1);
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
}

TEST_CASE("a later waiter finding the lock free hands it to the queued head", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);
    server->cmd({"DEL", keys.lock}); // the lease expired: free, and nobody was woken

    auto b = try_acquire(*backend, waiter("wb"));
    CHECK_FALSE(b.acquired);
    REQUIRE(b.holder);
    CHECK(b.holder->host == "wa-host");
    // Until A's grant may be ended (A could be dead): B waits no longer.
    CHECK(b.lease_left > 0ms);
    CHECK(b.lease_left <= 3000ms);
    CHECK(b.waiters == 2);
    CHECK(hget(*server, keys.lock, "owner") == "owner-wa");

    auto outsider = try_acquire(*backend, request("owner-x", "hold-x"));
    CHECK_FALSE(outsider.acquired);
    CHECK(hget(*server, keys.lock, "owner") == "owner-wa");
}

TEST_CASE("a refused latecomer wakes the head of a free lock, one token at most", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);
    server->cmd({"DEL", keys.lock}); // the lease expired: free, and nobody was woken

    REQUIRE_FALSE(try_acquire(*backend, waiter("wb")).acquired);
    CHECK(llen(*server, keys.wake + "wa") == 1);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wc")).acquired);
    CHECK(llen(*server, keys.wake + "wa") == 1);
}

TEST_CASE("the head takes the lock, leaves the queue, and the next release wakes B", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);

    auto a = try_acquire(*backend, waiter("wa"));
    CHECK(a.acquired);
    CHECK(a.holds == 1);
    CHECK(zrange(*server, keys.queue) == Strings{"wb", "wc"});
    CHECK(zrange(*server, keys.alive) == Strings{"wb", "wc"});
    CHECK_FALSE(exists(*server, keys.wake + "wa"));

    CHECK(release_hold(*backend, "owner-wa", "hold-wa") == 0);
    CHECK(llen(*server, keys.wake + "wb") == 1);
    CHECK_FALSE(exists(*server, keys.wake + "wc"));
    CHECK(try_acquire(*backend, waiter("wb")).acquired);
    CHECK(zrange(*server, keys.queue) == Strings{"wc"});
}

TEST_CASE("a waiter whose heartbeat lapsed is skipped when the lock is released", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 200ms}, {"wb", 10s}});
    std::this_thread::sleep_for(400ms); // A is silent past its heartbeat

    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
    CHECK(llen(*server, keys.wake + "wb") == 1);
    // B was handed the lock: out of the queue, and its own acquire finds it.
    CHECK(zrange(*server, keys.queue).empty());
    CHECK(hget(*server, keys.lock, "owner") == "owner-wb");
    CHECK(try_acquire(*backend, waiter("wb", 10s)).acquired);
}

TEST_CASE("a waiter whose heartbeat lapsed no longer blocks a free lock", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 200ms}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    // Keep the queue keys from expiring on their own, so only the script can drop A.
    server->cmd({"PERSIST", keys.queue});
    server->cmd({"PERSIST", keys.alive});
    std::this_thread::sleep_for(400ms);

    auto c = try_acquire(*backend, request("owner-c", "hold-c"));
    CHECK(c.acquired);
    CHECK(server->cmd({"ZCARD", keys.queue}).integer() == 0);
    CHECK(server->cmd({"ZCARD", keys.alive}).integer() == 0);
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
}

TEST_CASE("a waiter refused by a free lock learns when the dead head may be dropped", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    hold_with_queue(*backend, {{"wa", 300ms}, {"wb", 10s}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    std::this_thread::sleep_for(100ms); // A has died: it no longer asks

    auto b = try_acquire(*backend, waiter("wb", 10s));
    CHECK_FALSE(b.acquired);
    CHECK(b.lease_left > 0ms);
    CHECK(b.lease_left <= 200ms);
    std::this_thread::sleep_for(b.lease_left + 5ms);
    CHECK(try_acquire(*backend, waiter("wb", 10s)).acquired);
}

TEST_CASE("a lapsed waiter is purged when someone else is refused", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 200ms}, {"wb", 10s}});
    std::this_thread::sleep_for(400ms);

    auto c = try_acquire(*backend, waiter("wc", 10s));
    CHECK_FALSE(c.acquired);
    CHECK(c.waiters == 2);
    CHECK(zrange(*server, keys.queue) == Strings{"wb", "wc"});
}

TEST_CASE("queue, heartbeat and wake keys expire on their own", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_and_queue_abc(*backend, *server);
    for (const auto& key : {keys.queue, keys.alive}) {
        INFO(key);
        CHECK(pttl(*server, key) > 0);
        CHECK(pttl(*server, key) <= 3000);
    }
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    // A grant's token lives no longer than the lease it hands over (the waiter's 30 s).
    CHECK(pttl(*server, keys.wake + "wa") > 0);
    CHECK(pttl(*server, keys.wake + "wa") <= 30000);
}

TEST_CASE("an abandoned queue disappears after its heartbeat", "[queue]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 200ms}});
    REQUIRE(eventually([&] { return !exists(*server, keys.queue); }, 3s));
    CHECK_FALSE(exists(*server, keys.alive));
}
