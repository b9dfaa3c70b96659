#include "lock/watchdog.hpp"
#include "support/dlock_process.hpp"
#include "unit/lock/fake_backend.hpp"

#include <algorithm>
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

// A lease of `owner` to renew, with its clock (acquired now).
struct Lease {
    std::string owner, hold;
    Millis ttl;
    lock::LeaseClock clock;
    Lease(const std::string& owner, Millis ttl, Clock::time_point sent_at = Clock::now())
        : owner(owner), hold("hold-" + owner), ttl(ttl), clock(sent_at, ttl, 0ms) {}
    lock::RenewRequest request() const { return {keys, owner, hold, ttl, false}; }
};

size_t count(const std::vector<std::string>& v, const std::string& x) {
    return static_cast<size_t>(std::count(v.begin(), v.end(), x));
}

} // namespace

TEST_CASE("the watchdog renews every third of the TTL with the owner and TTL", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    Lease lease("owner-1", 300ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return backend.renew_count() >= 3; }, 5s));
    watchdog.stop();
    CHECK(backend.renew_owners.front() == "owner-1");
    CHECK(backend.renew_ttls.front() == 300ms);
    CHECK(factory.opened == 1);
    CHECK_FALSE(lease.clock.confirmed_lost());
}

TEST_CASE("the watchdog is lazy: no thread, no connection before a lease is added", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    {
        lock::Watchdog watchdog(factory.make(), 300ms, [] {});
        std::this_thread::sleep_for(200ms);
    }
    CHECK(factory.opened == 0);
    CHECK(backend.renew_count() == 0);
}

TEST_CASE("successful renewals move the lease guarantee forward", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    const auto start = Clock::now();
    Lease lease("owner", 300ms, start);
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return lease.clock.guaranteed_until() > start + 300ms + 150ms; }, 5s));
    watchdog.stop();
    CHECK_FALSE(lease.clock.expired(start + 300ms));
}

TEST_CASE("one watchdog renews all leases in one call per round over one connection",
          "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    const auto now = Clock::now();
    // Taken at different times: after the first round they are renewed together.
    Lease a("owner-a", 300ms, now), b("owner-b", 300ms, now + 30ms),
        c("owner-c", 300ms, now + 60ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    for (Lease* lease : {&a, &b, &c})
        watchdog.add(lease->request(), lease->clock);
    REQUIRE(eventually([&] { return backend.batches().size() >= 4; }, 5s));
    watchdog.stop();
    for (size_t batch : backend.batches())
        CHECK(batch == 3);
    CHECK(factory.opened == 1);
    for (Lease* lease : {&a, &b, &c})
        CHECK(lease->clock.guaranteed_until() > now + 300ms);
}

TEST_CASE("a lease added while the watchdog runs is renewed too", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    Lease a("owner-a", 300ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    watchdog.add(a.request(), a.clock);
    REQUIRE(eventually([&] { return backend.renew_count() >= 2; }, 5s));
    Lease b("owner-b", 300ms);
    watchdog.add(b.request(), b.clock);
    CHECK(eventually([&] { return count(backend.renewed_owners(), "owner-b") >= 2; }, 5s));
    watchdog.stop();
    CHECK(factory.opened == 1);
    CHECK(b.clock.guaranteed_until() > a.clock.guaranteed_until() - 150ms);
}

TEST_CASE("no renewal happens after stop()", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    Lease lease("owner", 150ms);
    lock::Watchdog watchdog(factory.make(), 150ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    REQUIRE(eventually([&] { return backend.renew_count() >= 1; }, 5s));
    watchdog.stop();
    const auto count = backend.renew_count();
    std::this_thread::sleep_for(300ms);
    CHECK(backend.renew_count() == count);
    Lease late("owner-late", 150ms);
    watchdog.add(late.request(), late.clock); // ignored: stop() is final
    std::this_thread::sleep_for(200ms);
    CHECK(backend.renew_count() == count);
}

TEST_CASE("stop() returns promptly while the watchdog sleeps", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    Lease lease("owner", 30s);
    lock::Watchdog watchdog(factory.make(), 30s, [] {});
    watchdog.add(lease.request(), lease.clock);
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
    Lease lease("owner", 300ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [&] { ++changes; });
    watchdog.add(lease.request(), lease.clock);
    REQUIRE(eventually([&] { return lease.clock.confirmed_lost(); }, 5s));
    CHECK(eventually([&] { return changes.load() == 1; }, 1s));
    std::this_thread::sleep_for(300ms);
    watchdog.stop();
    CHECK(backend.renew_count() == 1);
    CHECK(changes == 1);
    CHECK(lease.clock.expired());
}

TEST_CASE("a lease broken by release --force keeps who forced it", "[watchdog]") {
    FakeBackend backend;
    backend.renew_default = false;
    backend.forced = lock::ForcedRelease{"ops-1", 4242, "alice", 1'700'000'000'000};
    FakeFactory factory{backend};
    Lease lease("owner", 300ms);
    CHECK_FALSE(lease.clock.forced()); // nothing to tell before the loss
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    REQUIRE(eventually([&] { return lease.clock.confirmed_lost(); }, 5s));
    watchdog.stop();
    const auto forced = lease.clock.forced();
    REQUIRE(forced);
    CHECK(forced->user == "alice");
    CHECK(forced->host == "ops-1");
    CHECK(forced->pid == 4242);
    CHECK(forced->at_ms == 1'700'000'000'000);
}

TEST_CASE("one lease found gone is lost alone, the others are still renewed", "[watchdog]") {
    FakeBackend backend;
    backend.gone_owners = {"owner-b"};
    FakeFactory factory{backend};
    std::atomic<int> changes{0};
    Lease a("owner-a", 300ms), b("owner-b", 300ms), c("owner-c", 300ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [&] { ++changes; });
    for (Lease* lease : {&a, &b, &c})
        watchdog.add(lease->request(), lease->clock);
    REQUIRE(eventually([&] { return b.clock.confirmed_lost(); }, 5s));
    // Renewed long past the TTL, without b.
    std::this_thread::sleep_for(600ms);
    watchdog.stop();
    CHECK(count(backend.renew_owners, "owner-b") == 1);
    CHECK(count(backend.renew_owners, "owner-a") >= 3);
    CHECK(count(backend.renew_owners, "owner-c") >= 3);
    CHECK_FALSE(a.clock.confirmed_lost());
    CHECK_FALSE(c.clock.confirmed_lost());
    CHECK_FALSE(a.clock.expired());
    CHECK_FALSE(c.clock.expired());
    CHECK(changes == 1);
}

TEST_CASE("a transient renew error reopens the backend and retries", "[watchdog]") {
    FakeBackend backend;
    backend.renew_replies = {FakeBackend::transient()};
    FakeFactory factory{backend};
    Lease lease("owner", 600ms);
    lock::Watchdog watchdog(factory.make(), 600ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return backend.renew_count() >= 2; }, 5s));
    watchdog.stop();
    CHECK(factory.opened >= 2);
    CHECK_FALSE(lease.clock.confirmed_lost());
}

TEST_CASE("a non-transient renew error keeps the backend and retries", "[watchdog]") {
    FakeBackend backend;
    backend.renew_replies = {fail(dlock::Fault::internal, "script renew.lua failed: boom")};
    FakeFactory factory{backend};
    Lease lease("owner", 600ms);
    lock::Watchdog watchdog(factory.make(), 600ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return backend.renew_count() >= 2; }, 5s));
    watchdog.stop();
    CHECK(factory.opened == 1);
}

TEST_CASE("a backend that cannot be opened is retried", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    factory.failures_left = 2;
    Lease lease("owner", 1s);
    lock::Watchdog watchdog(factory.make(), 1s, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return backend.renew_count() >= 1; }, 5s));
    watchdog.stop();
    CHECK(factory.opened >= 3);
    CHECK_FALSE(lease.clock.expired());
}

TEST_CASE("renewals that keep failing let the lease clock expire, not 'lost'", "[watchdog]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    factory.failures_left = -1;
    Lease lease("owner", 300ms);
    lock::Watchdog watchdog(factory.make(), 300ms, [] {});
    watchdog.add(lease.request(), lease.clock);
    CHECK(eventually([&] { return lease.clock.expired(); }, 5s));
    watchdog.stop();
    CHECK_FALSE(lease.clock.confirmed_lost());
    CHECK(backend.renew_count() == 0);
}
