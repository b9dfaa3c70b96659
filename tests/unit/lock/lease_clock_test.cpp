#include "lock/lease_clock.hpp"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

using namespace dlock;
using dlock::lock::LeaseClock;
using namespace std::chrono_literals;

namespace {
const LeaseClock::Clock::time_point t0 = LeaseClock::Clock::now();
}

TEST_CASE("the lease is guaranteed until the acquire's send time plus the TTL", "[lease_clock]") {
    LeaseClock clock(t0, 30s, 5s);
    CHECK(clock.guaranteed_until() == t0 + 30s);
    CHECK_FALSE(clock.confirmed_lost());
}

TEST_CASE("a renewal moves the guarantee to its send time plus the TTL", "[lease_clock]") {
    LeaseClock clock(t0, 30s, 5s);
    clock.renewed(t0 + 10s);
    CHECK(clock.guaranteed_until() == t0 + 40s);
}

TEST_CASE("an older renewal reply never moves the guarantee back", "[lease_clock]") {
    LeaseClock clock(t0, 30s, 5s);
    clock.renewed(t0 + 20s);
    clock.renewed(t0 + 10s);
    CHECK(clock.guaranteed_until() == t0 + 50s);
    clock.renewed(t0 - 1s);
    CHECK(clock.guaranteed_until() == t0 + 50s);
}

TEST_CASE("stop_at leaves the safety margin and the kill grace before expiry", "[lease_clock]") {
    LeaseClock clock(t0, 30s, 5s);
    CHECK(clock.stop_at() == t0 + 30s - 2s - 5s);
    LeaseClock short_lease(t0, 1s, 0ms);
    CHECK(short_lease.stop_at() == t0 + 1s - 100ms);
}

TEST_CASE("the safety margin is a tenth of the TTL, within 50ms and 2s", "[lease_clock]") {
    CHECK(LeaseClock::safety_margin(100ms) == 50ms);
    CHECK(LeaseClock::safety_margin(500ms) == 50ms);
    CHECK(LeaseClock::safety_margin(1s) == 100ms);
    CHECK(LeaseClock::safety_margin(10s) == 1s);
    CHECK(LeaseClock::safety_margin(20s) == 2s);
    CHECK(LeaseClock::safety_margin(1h) == 2s);
}

TEST_CASE("the lease expires at stop_at, not before", "[lease_clock]") {
    LeaseClock clock(t0, 10s, 1s);
    const auto stop = clock.stop_at(); // t0 + 8s
    CHECK_FALSE(clock.expired(stop - 1ms));
    CHECK(clock.expired(stop));
    CHECK(clock.expired(stop + 1h));
    clock.renewed(t0 + 5s);
    CHECK_FALSE(clock.expired(stop));
}

TEST_CASE("a lost lease must stop at once, whatever was renewed", "[lease_clock]") {
    LeaseClock clock(t0, 30s, 5s);
    clock.lost();
    CHECK(clock.confirmed_lost());
    CHECK(clock.stop_at() == LeaseClock::Clock::time_point::min());
    CHECK(clock.expired(t0));
    clock.renewed(t0 + 10s);
    CHECK(clock.expired(t0));
}

TEST_CASE("concurrent renewals keep the latest guarantee", "[lease_clock]") {
    LeaseClock clock(t0, 1s, 0ms);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&clock, t] {
            for (int i = 0; i < 10'000; ++i)
                clock.renewed(t0 + std::chrono::microseconds(i * 4 + t));
        });
    for (auto& thread : threads)
        thread.join();
    CHECK(clock.guaranteed_until() == t0 + 1s + std::chrono::microseconds(9'999 * 4 + 3));
}
