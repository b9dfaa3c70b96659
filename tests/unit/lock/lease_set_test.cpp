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

TEST_CASE("one watchdog renews every lease of the set in one call per round", "[lease_set]") {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 300ms, 50ms, 3s);
    for (const char* name : {"a", "b", "c", "d", "e"})
        leases.add(id(name), acquired_at(Clock::now()));
    leases.start_renewals();
    REQUIRE(dlock::test::eventually([&] { return backend.batches().size() >= 3; }, 5s));
    leases.stop_renewals();
    CHECK(factory.opened == 1);
    for (size_t batch : backend.batches())
        CHECK(batch == 5);
    CHECK(leases.lost() == nullptr);
}

TEST_CASE("a lease gone after a release whose reply was lost is reported lost", "[lease_set]") {
    // A store answers a replay of a release that ran with "released" (its receipt): "not ours"
    // after a lost reply means the lease vanished meanwhile (a restart without persistence).
    FakeBackend backend;
    backend.release_replies = {FakeBackend::transient(), std::optional<int64_t>()};
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    leases.add(id("a"), acquired_at(Clock::now()));
    int gone = 0;
    lock::LeaseSet::Ending ending;
    ending.on_gone = [&](const lock::HeldLease&) { ++gone; };
    leases.release_all(backend, ending);
    CHECK(backend.release_calls.size() == 2);
    CHECK(gone == 1);
}

TEST_CASE("a release answered with a store error is handed to on_unreleased", "[lease_set]") {
    FakeBackend backend;
    backend.release_replies = {tl::unexpected(Error{dlock::Fault::internal, "garbage"})};
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    leases.add(id("a"), acquired_at(Clock::now()));
    std::vector<std::string> failed;
    lock::LeaseSet::Ending ending;
    ending.on_unreleased = [&](const lock::HeldLease& lease, const Error& error) {
        failed.push_back(lease.name() + ": " + error.message);
    };
    leases.release_all(backend, ending);
    CHECK(failed == std::vector<std::string>{"a: garbage"});
}

TEST_CASE("a lease found gone at the release is reported", "[lease_set]") {
    FakeBackend backend;
    backend.release_replies = {std::optional<int64_t>()};
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    leases.add(id("a"), acquired_at(Clock::now()));
    std::vector<std::string> gone;
    lock::LeaseSet::Ending ending;
    ending.on_gone = [&](const lock::HeldLease& lease) { gone.push_back(lease.name()); };
    leases.release_all(backend, ending);
    CHECK(gone == std::vector<std::string>{"a"});
}

TEST_CASE("release_all gives up within seconds when Redis stays unreachable", "[lease_set]") {
    FakeBackend backend;
    backend.release_default = FakeBackend::unreachable();
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 30s, 5s, 3s);
    for (int i = 0; i < 50; ++i)
        leases.add(id("n" + std::to_string(i)), acquired_at(Clock::now()));
    const auto start = Clock::now();
    leases.release_all(backend);
    const auto elapsed = Clock::now() - start;
    CHECK(elapsed >= 2900ms);
    CHECK(elapsed < 5s);
    // The newest lease was retried; the others were not tried once Redis stayed unreachable.
    CHECK(backend.release_calls.size() > 5);
    for (const auto& call : backend.release_calls)
        CHECK(call.lock == "dlock:{n49}:lock");
    CHECK(leases.empty());
}

TEST_CASE("release_all retries reset connections while the lease may still exist", "[lease_set]") {
    // Redis answers connects but every command's connection is reset (a CLIENT KILL loop):
    // giving up after 3 s would leave the name held for the rest of its TTL.
    FakeBackend backend;
    backend.release_default = FakeBackend::transient();
    FakeFactory factory{backend};
    lock::LeaseSet leases(factory.make(), 5s, 1s, 3s);
    leases.add(id("job"), acquired_at(Clock::now()));
    const auto start = Clock::now();
    leases.release_all(backend);
    const auto elapsed = Clock::now() - start;
    CHECK(elapsed >= 4900ms); // the lease's guarantee: acquired now, TTL 5 s
    CHECK(elapsed < 8s);
    CHECK(leases.empty());
}
