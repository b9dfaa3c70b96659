#include "lock/watchdog.hpp"
#include "support/dlock_process.hpp"
#include "unit/lock/fake_backend.hpp"

#include <atomic>
#include <catch2/catch.hpp>

using namespace dlock;
using namespace std::chrono_literals;
using dlock::test::eventually;
using dlock::test::FakeBackend;
using dlock::test::FakeFactory;
using Clock = lock::LeaseClock::Clock;

namespace {

const lock::Keys keys = lock::Keys::of("dlock", "job");

} // namespace

TEST_CASE("the watchdog renews every third of the TTL with the owner and TTL", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseClock clock(Clock::now(), 300ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner-1", 300ms, clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return backend.renew_count() >= 3; }, 5s));
    watchdog.stop();
    CHECK(backend.renew_owners.front() == "owner-1");
    CHECK(backend.renew_ttls.front() == 300ms);
    CHECK(factory.opened == 1);
    CHECK_FALSE(clock.confirmed_lost());
}

TEST_CASE("successful renewals move the lease guarantee forward", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    const auto start = Clock::now();
    lock::LeaseClock clock(start, 300ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 300ms, clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return clock.guaranteed_until() > start + 300ms + 150ms; }, 5s));
    watchdog.stop();
    CHECK_FALSE(clock.expired(start + 300ms));
}

TEST_CASE("no renewal happens after stop()", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseClock clock(Clock::now(), 150ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 150ms, clock, [] {});
    watchdog.start();
    REQUIRE(eventually([&] { return backend.renew_count() >= 1; }, 5s));
    watchdog.stop();
    const auto count = backend.renew_count();
    std::this_thread::sleep_for(300ms);
    CHECK(backend.renew_count() == count);
}

TEST_CASE("stop() returns promptly while the watchdog sleeps", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseClock clock(Clock::now(), 30s, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 30s, clock, [] {});
    watchdog.start();
    std::this_thread::sleep_for(50ms);
    const auto before = Clock::now();
    watchdog.stop();
    CHECK(Clock::now() - before < 1s);
    CHECK(backend.renew_count() == 0);
}

TEST_CASE("a renewal that says 'not ours' marks the lease lost and notifies", "[watchdog]") {
    FakeBackend backend;
    backend.renew_default = false;
    FakeFactory factory{backend};
    std::atomic<int> changes{0};
    lock::LeaseClock clock(Clock::now(), 300ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 300ms, clock, [&] { ++changes; });
    watchdog.start();
    REQUIRE(eventually([&] { return clock.confirmed_lost(); }, 5s));
    CHECK(eventually([&] { return changes.load() == 1; }, 1s));
    std::this_thread::sleep_for(300ms);
    watchdog.stop();
    CHECK(backend.renew_count() == 1);
    CHECK(changes == 1);
    CHECK(clock.expired());
}

TEST_CASE("a transient renew error reopens the backend and retries", "[watchdog]") {
    FakeBackend backend;
    backend.renew_replies = {FakeBackend::transient()};
    FakeFactory factory{backend};
    lock::LeaseClock clock(Clock::now(), 600ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 600ms, clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return backend.renew_count() >= 2; }, 5s));
    watchdog.stop();
    CHECK(factory.opened >= 2);
    CHECK_FALSE(clock.confirmed_lost());
}

TEST_CASE("a non-transient renew error keeps the backend and retries", "[watchdog]") {
    FakeBackend backend;
    backend.renew_replies = {fail(exit_code::internal, "script renew.lua failed: boom")};
    FakeFactory factory{backend};
    lock::LeaseClock clock(Clock::now(), 600ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 600ms, clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return backend.renew_count() >= 2; }, 5s));
    watchdog.stop();
    CHECK(factory.opened == 1);
}

TEST_CASE("a backend that cannot be opened is retried", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    factory.failures_left = 2;
    lock::LeaseClock clock(Clock::now(), 1s, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 1s, clock, [] {});
    watchdog.start();
    CHECK(eventually([&] { return backend.renew_count() >= 1; }, 5s));
    watchdog.stop();
    CHECK(factory.opened >= 3);
    CHECK_FALSE(clock.expired());
}

TEST_CASE("renewals that keep failing let the lease clock expire, not 'lost'", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    factory.failures_left = -1;
    std::atomic<int> changes{0};
    lock::LeaseClock clock(Clock::now(), 300ms, 0ms);
    lock::Watchdog watchdog(factory.make(), keys, "owner", 300ms, clock, [&] { ++changes; });
    watchdog.start();
    CHECK(eventually([&] { return clock.expired(); }, 5s));
    watchdog.stop();
    CHECK_FALSE(clock.confirmed_lost());
    CHECK(backend.renew_count() == 0);
}
