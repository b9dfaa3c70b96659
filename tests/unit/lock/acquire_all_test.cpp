// lock::acquire_all: canonical order, all or nothing, an absolute wait, renewals while waiting.

#include "lock/acquire_all.hpp"
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

lock::LeaseRequest request(const std::string& name, Millis ttl = 30s, Millis heartbeat = 3s) {
    lock::LeaseId id{name, lock::Keys::of("dlock", name), "owner", "hold-" + name};
    lock::AcquireRequest r;
    r.owner = id.owner;
    r.hold_id = id.hold_id;
    r.ttl = ttl;
    r.heartbeat = heartbeat;
    return {id, r};
}

std::vector<lock::LeaseRequest> requests(std::initializer_list<const char*> names, Millis ttl = 30s,
                                         Millis heartbeat = 3s) {
    std::vector<lock::LeaseRequest> out;
    for (const char* name : names)
        out.push_back(request(name, ttl, heartbeat));
    return out;
}

std::string lock_key(const std::string& name) {
    return lock::Keys::of("dlock", name).lock;
}

Millis since(Clock::time_point start) {
    return std::chrono::duration_cast<Millis>(Clock::now() - start);
}

// A lease set whose watchdogs renew through `backend`.
struct Fixture {
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::LeaseSet leases;

    explicit Fixture(Millis ttl = 30s) : leases(factory.make(), ttl, ttl / 6, 3s) {}
};

} // namespace

TEST_CASE("acquire_all takes the names in byte order whatever order they are given",
          "[acquire_all]") {
    Fixture f;
    f.backend.acquire_default = FakeBackend::acquired(5);
    auto result = lock::acquire_all(f.backend, requests({"c", "a", "B", "b"}), 0ms, f.leases);
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::AllHeld>(*result));
    CHECK(f.backend.acquire_keys ==
          std::vector<std::string>{lock_key("B"), lock_key("a"), lock_key("b"), lock_key("c")});
    REQUIRE(f.leases.size() == 4);
    CHECK(f.leases[0].name() == "B");
    CHECK(f.leases.find("c")->fence() == 5);
    // Each request went with its own hold id.
    CHECK(f.backend.acquire_calls[3].hold_id == "hold-c");
    CHECK(f.backend.release_calls.empty());
}

TEST_CASE("a refused name releases every lease taken before it, newest first", "[acquire_all]") {
    Fixture f;
    f.backend.acquire_replies = {FakeBackend::acquired(1), FakeBackend::acquired(2),
                                 FakeBackend::held_by_other()};
    auto result = lock::acquire_all(f.backend, requests({"a", "c", "b"}), 0ms, f.leases);
    REQUIRE(result);
    auto* blocked = std::get_if<lock::Blocked>(&*result);
    REQUIRE(blocked);
    CHECK(blocked->name == "c");
    CHECK_FALSE(blocked->refused.timed_out);
    REQUIRE(blocked->refused.last.holder);
    CHECK(blocked->refused.last.holder->host == "web-9");
    REQUIRE(f.backend.release_calls.size() == 2);
    CHECK(f.backend.release_calls[0].lock == lock_key("b"));
    CHECK(f.backend.release_calls[0].hold == "hold-b");
    CHECK(f.backend.release_calls[1].lock == lock_key("a"));
    CHECK(f.backend.release_calls[1].owner == "owner");
    CHECK(f.leases.empty());
    // Without a wait nobody queues.
    for (const auto& call : f.backend.acquire_calls)
        CHECK(call.waiter_id.empty());
}

TEST_CASE("a refused first name releases nothing", "[acquire_all]") {
    Fixture f;
    auto result = lock::acquire_all(f.backend, requests({"b", "a"}), 0ms, f.leases);
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Blocked>(*result));
    CHECK(std::get<lock::Blocked>(*result).name == "a");
    CHECK(f.backend.acquire_calls.size() == 1);
    CHECK(f.backend.release_calls.empty());
}

TEST_CASE("an error on a later name releases the earlier ones and is returned", "[acquire_all]") {
    Fixture f;
    f.backend.acquire_replies = {FakeBackend::acquired(1), FakeBackend::transient()};
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}), 0ms, f.leases);
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::unavailable);
    // b's acquire got no reply: its hold id is given back in case it ran; then a is released.
    REQUIRE(f.backend.release_calls.size() == 2);
    CHECK(f.backend.release_calls[0].lock == lock_key("b"));
    CHECK(f.backend.release_calls[0].hold == "hold-b");
    CHECK(f.backend.release_calls[1].lock == lock_key("a"));
    CHECK(f.leases.empty());
}

TEST_CASE("a refused upgrade names the name it concerns", "[acquire_all]") {
    Fixture f;
    f.backend.acquire_replies = {FakeBackend::acquired(1),
                                 fail(dlock::Fault::bad_input, "no upgrades")};
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}), 0ms, f.leases);
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::bad_input);
    CHECK(result.error().message == "cannot take b: no upgrades");
    CHECK(f.backend.release_calls.size() == 1);
}

TEST_CASE("the wait is one deadline across all names", "[acquire_all]") {
    Fixture f;
    // a is free only after one 200 ms round (heartbeat 600 ms: 200 ms slices); b never is.
    f.backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::acquired(1)};
    const auto start = Clock::now();
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}, 30s, 600ms), 500ms, f.leases);
    const auto elapsed = since(start);
    REQUIRE(result);
    auto* blocked = std::get_if<lock::Blocked>(&*result);
    REQUIRE(blocked);
    CHECK(blocked->name == "b");
    CHECK(blocked->refused.timed_out);
    CHECK(elapsed >= 450ms);
    CHECK(elapsed < 1200ms);
    // b waited only for what a left of the 500 ms.
    Millis waited_for_b{0};
    for (size_t i = 1; i < f.backend.await_timeouts.size(); ++i)
        waited_for_b += f.backend.await_timeouts[i];
    CHECK(waited_for_b <= 320ms);
    // b left its queue, a was given back.
    REQUIRE(f.backend.leave_calls.size() == 1);
    CHECK(f.backend.leave_calls[0].first == f.backend.acquire_calls.back().waiter_id);
    REQUIRE(f.backend.release_calls.size() == 1);
    CHECK(f.backend.release_calls[0].lock == lock_key("a"));
}

TEST_CASE("a later name is still tried once when the wait ran out on an earlier one",
          "[acquire_all]") {
    Fixture f;
    f.backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::acquired(1),
                                 FakeBackend::acquired(2)};
    // a's only round blocks for the whole 100 ms wait.
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}, 30s, 3s), 100ms, f.leases);
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::AllHeld>(*result));
    CHECK(f.leases.size() == 2);
}

TEST_CASE("the leases taken are renewed while a later name is awaited", "[acquire_all]") {
    Fixture f(300ms); // renewed every 100 ms
    f.backend.acquire_replies = {FakeBackend::acquired(1), FakeBackend::held_by_other(),
                                 FakeBackend::held_by_other(), FakeBackend::held_by_other(),
                                 FakeBackend::acquired(2)};
    // Three 200 ms rounds for b: twice the TTL.
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}, 300ms, 600ms), 5s, f.leases);
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::AllHeld>(*result));
    CHECK(f.backend.renew_count() >= 3);
    CHECK(f.leases.lost() == nullptr);
    CHECK(f.leases[0].renewing());
    // The last lease is renewed lazily, by the supervisor, like a single one.
    CHECK_FALSE(f.leases[1].renewing());
    f.leases.stop_renewals();
}

TEST_CASE("a single name starts no renewals", "[acquire_all]") {
    Fixture f;
    f.backend.acquire_default = FakeBackend::acquired(1);
    auto result = lock::acquire_all(f.backend, requests({"a"}), 0ms, f.leases);
    REQUIRE(result);
    REQUIRE(f.leases.size() == 1);
    CHECK_FALSE(f.leases[0].renewing());
    CHECK(f.factory.opened == 0);
    CHECK(f.backend.acquire_calls.size() == 1);
}

TEST_CASE("a lease lost while a later name is awaited ends the wait and releases everything",
          "[acquire_all]") {
    Fixture f(300ms);
    f.backend.acquire_replies = {FakeBackend::acquired(1)};
    f.backend.renew_default = false; // the first renewal finds a gone
    const auto start = Clock::now();
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}, 300ms, 600ms), 10s, f.leases);
    REQUIRE(result);
    auto* lost = std::get_if<lock::LostMeanwhile>(&*result);
    REQUIRE(lost);
    CHECK(lost->name == "a");
    CHECK(since(start) < 2s);
    CHECK(f.backend.leave_calls.size() == 1);
    REQUIRE(f.backend.release_calls.size() == 1);
    CHECK(f.backend.release_calls[0].lock == lock_key("a"));
    CHECK(f.leases.empty());
}

TEST_CASE("an interruption ends the wait and releases everything", "[acquire_all]") {
    Fixture f;
    f.backend.acquire_replies = {FakeBackend::acquired(1)};
    std::atomic<bool> stop{false};
    std::thread interrupter([&] {
        std::this_thread::sleep_for(300ms);
        stop = true;
    });
    const auto start = Clock::now();
    auto result = lock::acquire_all(f.backend, requests({"a", "b"}, 30s, 600ms), std::nullopt,
                                    f.leases, [&] { return stop.load(); });
    interrupter.join();
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Interrupted>(*result));
    CHECK(since(start) < 1500ms);
    CHECK(f.backend.leave_calls.size() == 1);
    CHECK(f.backend.release_calls.size() == 1);
    CHECK(f.leases.empty());
}

TEST_CASE("shared leases are released as shared", "[acquire_all]") {
    Fixture f;
    auto shared = FakeBackend::acquired(1);
    shared.shared = true;
    f.backend.acquire_replies = {shared, FakeBackend::held_by_other()};
    auto reqs = requests({"a", "b"});
    for (auto& r : reqs)
        r.request.shared = true;
    auto result = lock::acquire_all(f.backend, reqs, 0ms, f.leases);
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Blocked>(*result));
    for (const auto& call : f.backend.acquire_calls)
        CHECK(call.shared);
    REQUIRE(f.backend.release_calls.size() == 1);
    CHECK(f.backend.release_calls[0].shared);
}
