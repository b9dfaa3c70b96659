#include "integration/lock_helpers.hpp"
#include "lock/watchdog.hpp"

#include <atomic>
#include <csignal>

using namespace dlock;
using namespace dlock::test;

namespace {

struct Lease {
    Clock::time_point sent_at;
    int64_t fence = 0;
};

Lease take(lock::Backend& backend, Millis ttl) {
    const auto sent_at = Clock::now();
    auto out = try_acquire(backend, request("owner-a", "hold-a", ttl));
    REQUIRE(out.acquired);
    return Lease{sent_at, out.fence};
}

} // namespace

TEST_CASE("the watchdog keeps a 1s lease alive well past its TTL", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    std::atomic<int> changes{0};
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), keys, "owner-a",
                            1s, clock, [&] { ++changes; });
    watchdog.start();
    std::this_thread::sleep_for(2500ms);
    CHECK(exists(*server, keys.lock));
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK(pttl(*server, keys.lock) > 0);
    CHECK_FALSE(clock.confirmed_lost());
    CHECK_FALSE(clock.expired());
    CHECK(clock.guaranteed_until() > lease.sent_at + 2s);
    watchdog.stop();
    CHECK(changes == 0);
}

TEST_CASE("after stop() the lease is no longer renewed and expires", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), keys, "owner-a",
                            1s, clock, [] {});
    watchdog.start();
    std::this_thread::sleep_for(500ms);
    watchdog.stop();
    CHECK(eventually([&] { return !exists(*server, keys.lock); }, 3s));
}

TEST_CASE("the watchdog marks the lease lost when the key is deleted", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    std::atomic<int> changes{0};
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), keys, "owner-a",
                            1s, clock, [&] { ++changes; });
    watchdog.start();
    server->cmd({"DEL", keys.lock});
    CHECK(eventually([&] { return clock.confirmed_lost(); }, 3s));
    CHECK(eventually([&] { return changes.load() == 1; }, 1s));
    CHECK(clock.expired());
    watchdog.stop();
    CHECK_FALSE(exists(*server, keys.lock)); // the watchdog never recreates it
}

TEST_CASE("the watchdog marks the lease lost when another owner took it", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    std::atomic<int> changes{0};
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), keys, "owner-a",
                            1s, clock, [&] { ++changes; });
    watchdog.start();
    server->cmd({"HSET", keys.lock, "owner", "owner-thief"});
    CHECK(eventually([&] { return clock.confirmed_lost(); }, 3s));
    CHECK(eventually([&] { return changes.load() == 1; }, 1s));
    watchdog.stop();
    CHECK(hget(*server, keys.lock, "owner") == "owner-thief");
}

TEST_CASE("a watchdog that cannot reach Redis lets the lease clock expire", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    const std::string url = server->url();
    server->stop();
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(url)), keys, "owner-a", 1s,
                            clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return clock.expired(); }, 3s));
    CHECK_FALSE(clock.confirmed_lost());
    CHECK(clock.guaranteed_until() == lease.sent_at + 1s); // never renewed
    watchdog.stop();
}

TEST_CASE("the watchdog reconnects after a Redis restart and finds the lease lost", "[watchdog]") {
    // The fixture's server has no persistence, so the restart drops the key.
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 2s);
    std::atomic<int> changes{0};
    lock::LeaseClock clock(lease.sent_at, 2s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), keys, "owner-a",
                            2s, clock, [&] { ++changes; });
    watchdog.start();
    server->restart();
    CHECK(eventually([&] { return clock.confirmed_lost(); }, 5s));
    CHECK(changes == 1);
    watchdog.stop();
}
