// lock::LeaseSet: the earliest deadline of several leases, which one is lost, releasing all.

#include "lock/lease_set.hpp"
#include "support/dlock_process.hpp"
#include "unit/lock/fake_backend.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

using namespace dlock;
using namespace std::chrono_literals;
using dlock::test::FakeBackend;
using dlock::test::FakeFactory;
using Clock = std::chrono::steady_clock;

namespace {

lock::LeaseId id(const std::string& name) {
    return {name, lock::Keys::of("dlock", name), "owner-" + name, "hold-" + name};
}

lock::Acquired acquired_at(Clock::time_point sent_at, int64_t fence = 1) {
    lock::Acquired a;
    a.fence = fence;
    a.holds = 1;
    a.sent_at = sent_at;
    return a;
}

} // namespace

TEST_CASE("an empty lease set never stops anything", "[lease_set]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    CHECK(leases.empty());
    CHECK(leases.stop_at() == Clock::time_point::max());
    CHECK(leases.renewals_due() == Clock::time_point::max());
    CHECK(leases.lost() == nullptr);
}

TEST_CASE("the command must stop at the earliest deadline of all leases", "[lease_set]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    const auto t0 = Clock::now();
    leases.add(id("b"), acquired_at(t0 + 2s));
    leases.add(id("a"), acquired_at(t0));
    // 30 s lease, 2 s margin, 5 s grace.
    CHECK(leases.stop_at() == t0 + 23s);
    CHECK(leases.renewals_due() == t0 + 10s);
    CHECK(leases.lost(t0 + 22s) == nullptr);
    REQUIRE(leases.lost(t0 + 23s));
    CHECK(leases.lost(t0 + 23s)->name() == "a");
    // Past both deadlines, the one that passed first is named.
    CHECK(leases.lost(t0 + 60s)->name() == "a");
    CHECK(leases.find("b")->name() == "b");
    CHECK(leases.find("c") == nullptr);
}

TEST_CASE("a lease Redis says is gone is the lost one, whatever the deadlines", "[lease_set]") {
    FakeBackend backend;
    backend.renew_default = false;
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 300ms, 50ms, 3s);
    std::atomic<int> changes{0};
    leases.on_change([&] { ++changes; });
    leases.add(id("a"), acquired_at(Clock::now()));
    leases.add(id("b"), acquired_at(Clock::now() + 10s));
    leases.start_renewals();
    CHECK(leases.renewals_due() == Clock::time_point::max());
    REQUIRE(dlock::test::eventually([&] { return changes.load() > 0; }, 3s));
    REQUIRE(leases.lost());
    CHECK(leases.lost()->clock().confirmed_lost());
    CHECK(leases.stop_at() == Clock::time_point::min());
    leases.stop_renewals();
}

TEST_CASE("release_all releases newest first, retries transient errors, and empties the set",
          "[lease_set]") {
    FakeBackend backend;
    backend.release_replies = {FakeBackend::transient(), std::optional<int64_t>(0)};
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    leases.add(id("a"), acquired_at(Clock::now()));
    leases.add(id("b"), acquired_at(Clock::now()));
    leases.release_all(backend);
    REQUIRE(backend.release_calls.size() == 3);
    CHECK(backend.release_calls[0].lock == "dlock:{b}:lock");
    CHECK(backend.release_calls[1].lock == "dlock:{b}:lock");
    CHECK(backend.release_calls[2].lock == "dlock:{a}:lock");
    CHECK(backend.release_calls[2].owner == "owner-a");
    CHECK(backend.release_calls[2].hold == "hold-a");
    CHECK(leases.empty());
    leases.release_all(backend); // nothing left to release
    CHECK(backend.release_calls.size() == 3);
}
