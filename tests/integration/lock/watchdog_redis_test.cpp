#include "integration/lock_helpers.hpp"
#include "lock/watchdog.hpp"
#include "redis/stores/backends.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>

using namespace dlock;
using namespace dlock::test;

namespace {

struct Lease {
    Clock::time_point sent_at;
    int64_t fence = 0;
};

lock::RenewRequest renewal(const lock::Keys& keys, Millis ttl) {
    return {keys, "owner-a", "hold-a", ttl, false};
}

Lease take(lock::Backend& backend, Millis ttl) {
    const auto sent_at = Clock::now();
    auto out = try_acquire(backend, request("owner-a", "hold-a", ttl));
    REQUIRE(out.acquired);
    return Lease{sent_at, out.fence};
}

size_t lines_of(std::string_view text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("the watchdog keeps a 1s lease alive well past its TTL", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto lease = take(*backend, 1s);
    std::atomic<int> changes{0};
    lock::LeaseClock clock(lease.sent_at, 1s, 0ms);
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 1s,
                            [&] { ++changes; });
    watchdog.add(renewal(keys, 1s), clock);
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
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 1s, [] {});
    watchdog.add(renewal(keys, 1s), clock);
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
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 1s,
                            [&] { ++changes; });
    watchdog.add(renewal(keys, 1s), clock);
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
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 1s,
                            [&] { ++changes; });
    watchdog.add(renewal(keys, 1s), clock);
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
    lock::Watchdog watchdog(redis::backend_factory(connect_options(url)), 1s, [] {});
    watchdog.add(renewal(keys, 1s), clock);
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
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 2s,
                            [&] { ++changes; });
    watchdog.add(renewal(keys, 2s), clock);
    server->restart();
    CHECK(eventually([&] { return clock.confirmed_lost(); }, 5s));
    CHECK(changes == 1);
    watchdog.stop();
}

TEST_CASE("one watchdog keeps 200 leases alive over one connection", "[watchdog]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    struct Held {
        lock::Keys keys;
        std::string owner;
        std::unique_ptr<lock::LeaseClock> clock;
    };
    std::vector<Held> leases;
    for (int i = 0; i < 200; ++i) {
        const std::string owner = "owner-" + std::to_string(i);
        const auto keys = job_keys("job-" + std::to_string(i));
        const auto sent_at = Clock::now();
        REQUIRE(try_acquire(*backend, request(owner, "hold-" + owner, 1s), keys).acquired);
        leases.push_back({keys, owner, std::make_unique<lock::LeaseClock>(sent_at, 1s, 0ms)});
    }
    lock::Watchdog watchdog(redis::backend_factory(connect_options(server->url())), 1s, [] {});
    for (const auto& lease : leases)
        watchdog.add({lease.keys, lease.owner, "", 1s, false}, *lease.clock);
    std::this_thread::sleep_for(2500ms);
    // This connection, the acquiring one and the watchdog's.
    CHECK(lines_of(server->cmd({"CLIENT", "LIST"}).str()) == 3);
    watchdog.stop();
    for (const auto& lease : leases) {
        INFO(lease.keys.lock);
        CHECK(hget(*server, lease.keys.lock, "owner") == lease.owner);
        CHECK_FALSE(lease.clock->expired());
    }
}

TEST_CASE("the watchdog renews shared holds and semaphore permits by their hold id", "[watchdog]") {
    REQUIRE_REDIS(server);
    const bool semaphore = GENERATE(false, true);
    INFO((semaphore ? "permit" : "shared hold"));
    std::unique_ptr<lock::Backend> backend;
    if (semaphore)
        backend = std::make_unique<redis::SemaphoreBackend>(connect_options(server->url()), 2);
    else
        backend = open_backend(*server);
    const auto keys = job_keys();
    auto r = request("owner-a", "hold-a", 1s);
    r.shared = true;
    const auto sent_at = Clock::now();
    REQUIRE(try_acquire(*backend, r).acquired);
    lock::LeaseClock clock(sent_at, 1s, 0ms);
    auto factory = semaphore ? redis::backend_factory_for(connect_options(server->url()), 2)
                             : redis::backend_factory(connect_options(server->url()));
    lock::Watchdog watchdog(factory, 1s, [] {});
    watchdog.add({keys, "owner-a", "hold-a", 1s, true}, clock);
    std::this_thread::sleep_for(2500ms);
    watchdog.stop();
    CHECK_FALSE(clock.expired());
    CHECK_FALSE(clock.confirmed_lost());
    if (semaphore)
        CHECK(server->cmd({"ZSCORE", keys.permits, "hold-a"}).is_string());
    else
        CHECK(server->cmd({"ZSCORE", keys.readers, "hold-a"}).is_string());
}
