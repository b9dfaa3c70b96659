#include "lock/acquire.hpp"
#include "unit/lock/fake_backend.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace std::chrono_literals;
using dlock::test::FakeBackend;
using Clock = std::chrono::steady_clock;

namespace {

lock::AcquireSpec spec(std::optional<Millis> wait, Millis heartbeat = 3s) {
    lock::AcquireSpec s;
    s.keys = lock::Keys::of("dlock", "job");
    s.request.owner = "owner";
    s.request.hold_id = "hold";
    s.request.ttl = 30s;
    s.request.heartbeat = heartbeat;
    s.wait = wait;
    return s;
}

Millis since(Clock::time_point start) {
    return std::chrono::duration_cast<Millis>(Clock::now() - start);
}

} // namespace

TEST_CASE("acquire takes a free lock at once without queueing", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies.push_back(FakeBackend::acquired(7, 1));
    const auto before = Clock::now();
    auto result = lock::acquire(backend, spec(0ms));
    REQUIRE(result);
    auto* got = std::get_if<lock::Acquired>(&*result);
    REQUIRE(got);
    CHECK(got->fence == 7);
    CHECK(got->holds == 1);
    CHECK(got->sent_at >= before);
    CHECK(got->sent_at <= Clock::now());
    REQUIRE(backend.acquire_calls.size() == 1);
    CHECK(backend.acquire_calls[0].waiter_id.empty());
}

TEST_CASE("acquire without wait is refused with the holder and does not queue", "[acquire]") {
    FakeBackend backend;
    auto result = lock::acquire(backend, spec(0ms));
    REQUIRE(result);
    auto* refused = std::get_if<lock::Refused>(&*result);
    REQUIRE(refused);
    CHECK_FALSE(refused->timed_out);
    REQUIRE(refused->last.holder);
    CHECK(refused->last.holder->host == "web-9");
    CHECK(backend.acquire_calls.size() == 1);
    CHECK(backend.acquire_calls[0].waiter_id.empty());
    CHECK(backend.await_timeouts.empty());
    CHECK(backend.leave_calls.empty());
}

TEST_CASE("a waiter keeps one random waiter id across its attempts", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::held_by_other(),
                               FakeBackend::acquired(3)};
    backend.await_replies = {true, true};
    auto result = lock::acquire(backend, spec(5s));
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    REQUIRE(backend.acquire_calls.size() == 3);
    const auto id = backend.acquire_calls[0].waiter_id;
    CHECK(id.size() == 16);
    CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    for (const auto& call : backend.acquire_calls)
        CHECK(call.waiter_id == id);
    for (const auto& awaited : backend.await_ids)
        CHECK(awaited == id);
    CHECK(backend.leave_calls.empty());
}

TEST_CASE("on_wait is told before every block and adds no call to the store", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::held_by_other(),
                               FakeBackend::acquired(3)};
    backend.await_replies = {true, true};
    auto s = spec(5s);
    int told = 0;
    s.on_wait = [&](const lock::AcquireOutcome& last) {
        CHECK_FALSE(last.acquired);
        CHECK(backend.await_ids.size() == static_cast<size_t>(told)); // before the block
        ++told;
    };
    REQUIRE(lock::acquire(backend, s));
    CHECK(told == 2);
    CHECK(backend.acquire_calls.size() == 3);
    CHECK(backend.await_ids.size() == 2);
}

TEST_CASE("on_wait is not told of a refusal without a wait", "[acquire]") {
    FakeBackend backend;
    backend.acquire_default = FakeBackend::held_by_other();
    auto s = spec(Millis(0));
    s.on_wait = [](const lock::AcquireOutcome&) { FAIL("told of a wait that never was"); };
    REQUIRE(lock::acquire(backend, s));
}

TEST_CASE("two waits use different waiter ids", "[acquire]") {
    FakeBackend backend;
    backend.acquire_default = FakeBackend::acquired(1);
    REQUIRE(lock::acquire(backend, spec(5s)));
    REQUIRE(lock::acquire(backend, spec(5s)));
    CHECK(backend.acquire_calls[0].waiter_id != backend.acquire_calls[1].waiter_id);
}

TEST_CASE("a waiter blocks at most a third of its heartbeat per round", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(60s), FakeBackend::acquired(1)};
    backend.await_replies = {true};
    REQUIRE(lock::acquire(backend, spec(10s, 3s)));
    REQUIRE(backend.await_timeouts.size() == 1);
    CHECK(backend.await_timeouts[0] == 1000ms);
}

TEST_CASE("a waiter blocks no longer than the holder's lease plus slack", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(200ms), FakeBackend::acquired(1)};
    backend.await_replies = {true};
    REQUIRE(lock::acquire(backend, spec(10s, 3s)));
    REQUIRE(backend.await_timeouts.size() == 1);
    CHECK(backend.await_timeouts[0] == 205ms);
}

TEST_CASE("a waiter blocks no longer than its remaining wait", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(60s), FakeBackend::acquired(1)};
    backend.await_replies = {true};
    REQUIRE(lock::acquire(backend, spec(50ms, 3s)));
    REQUIRE(backend.await_timeouts.size() == 1);
    CHECK(backend.await_timeouts[0] <= 50ms);
    CHECK(backend.await_timeouts[0] >= 1ms);
}

TEST_CASE("a free lock with others queued first blocks for a heartbeat slice", "[acquire]") {
    FakeBackend backend;
    lock::AcquireOutcome queued;
    queued.lease_left = Millis(-2);
    queued.waiters = 2;
    backend.acquire_replies = {queued, FakeBackend::acquired(1)};
    backend.await_replies = {true};
    REQUIRE(lock::acquire(backend, spec(10s, 600ms)));
    REQUIRE(backend.await_timeouts.size() == 1);
    CHECK(backend.await_timeouts[0] == 200ms);
}

TEST_CASE("a free lock with others queued first blocks until the first may be dropped",
          "[acquire]") {
    // The queue head may be dead: its heartbeat lapses in 150 ms, then the lock is ours.
    FakeBackend backend;
    lock::AcquireOutcome queued;
    queued.lease_left = 150ms;
    queued.waiters = 2;
    backend.acquire_replies = {queued, FakeBackend::acquired(1)};
    backend.await_replies = {false};
    REQUIRE(lock::acquire(backend, spec(10s, 3s)));
    REQUIRE(backend.await_timeouts.size() == 1);
    CHECK(backend.await_timeouts[0] == 155ms);
}

TEST_CASE("a waiter that times out leaves the queue and says so", "[acquire]") {
    FakeBackend backend;
    const auto start = Clock::now();
    auto result = lock::acquire(backend, spec(200ms, 3s));
    const auto elapsed = since(start);
    REQUIRE(result);
    auto* refused = std::get_if<lock::Refused>(&*result);
    REQUIRE(refused);
    CHECK(refused->timed_out);
    CHECK(refused->last.holder);
    CHECK(elapsed >= 190ms);
    CHECK(elapsed < 2s);
    REQUIRE(backend.leave_calls.size() == 1);
    CHECK(backend.leave_calls[0].first == backend.acquire_calls[0].waiter_id);
    CHECK(backend.leave_calls[0].second == 3s);
}

TEST_CASE("a waiter without a deadline waits until it gets the lock", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::held_by_other(),
                               FakeBackend::held_by_other(), FakeBackend::acquired(9, 1)};
    backend.await_replies = {false, true, false};
    auto result = lock::acquire(backend, spec(std::nullopt));
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    CHECK(std::get<lock::Acquired>(*result).fence == 9);
    CHECK_FALSE(backend.acquire_calls[0].waiter_id.empty());
}

TEST_CASE("a Redis never reached is reported at once even when waiting", "[acquire]") {
    // The backend says so with a non-transient error (see redis::ScriptSession).
    FakeBackend backend;
    backend.acquire_replies.push_back(
        fail(dlock::Fault::unavailable, "cannot reach Redis at x: Connection refused"));
    const auto start = Clock::now();
    auto result = lock::acquire(backend, spec(10s));
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::unavailable);
    CHECK(since(start) < 1s);
    CHECK(backend.acquire_calls.size() == 1);
    CHECK(backend.release_calls.empty()); // nothing can have run
}

TEST_CASE("a transient error at the first attempt is retried promptly while waiting", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::transient(), FakeBackend::transient(),
                               FakeBackend::transient(), FakeBackend::acquired(4)};
    const auto start = Clock::now();
    auto result = lock::acquire(backend, spec(10s));
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    // A short backoff: 20 + 40 + 80 ms.
    CHECK(since(start) < 500ms);
    REQUIRE(backend.acquire_calls.size() == 4);
    for (const auto& call : backend.acquire_calls) {
        CHECK(call.hold_id == "hold");
        CHECK(call.waiter_id == backend.acquire_calls[0].waiter_id);
    }
}

TEST_CASE("a caller giving up on a lost reply gives back its hold and leaves the queue",
          "[acquire]") {
    FakeBackend backend;
    const std::optional<Millis> wait =
        GENERATE(std::optional<Millis>(0ms), std::optional<Millis>(200ms));
    backend.acquire_default = FakeBackend::transient();
    auto result = lock::acquire(backend, spec(wait));
    REQUIRE_FALSE(result);
    CHECK(result.error().transient);
    REQUIRE(backend.release_calls.size() == 1);
    CHECK(backend.release_calls[0].owner == "owner");
    CHECK(backend.release_calls[0].hold == "hold");
    CHECK_FALSE(backend.release_calls[0].shared);
    if (*wait > 0ms) {
        REQUIRE(backend.leave_calls.size() == 1);
        CHECK(backend.leave_calls[0].first == backend.acquire_calls[0].waiter_id);
    } else {
        CHECK(backend.leave_calls.empty());
    }
}

TEST_CASE("a hold granted unreplicated is given back once and retried within the wait",
          "[acquire]") {
    FakeBackend backend;
    auto unreplicated = FakeBackend::acquired(4);
    unreplicated.unreplicated = Error{Fault::unavailable, "1 of 2 replicas", true};
    SECTION("no wait: given back once, its error returned, no queue to leave") {
        backend.acquire_default = unreplicated;
        auto result = lock::acquire(backend, spec(0ms));
        REQUIRE_FALSE(result);
        CHECK(result.error().message == "1 of 2 replicas");
        CHECK(result.error().transient);
        REQUIRE(backend.release_calls.size() == 1);
        CHECK(backend.release_calls[0].hold == "hold");
        CHECK(backend.leave_calls.empty());
    }
    SECTION("a wait: given back, then taken when replicated") {
        backend.acquire_replies = {unreplicated, FakeBackend::acquired(5)};
        auto result = lock::acquire(backend, spec(5s));
        REQUIRE(result);
        CHECK(std::get<lock::Acquired>(*result).fence == 5);
        CHECK(backend.release_calls.size() == 1);
        CHECK(backend.acquire_calls.size() == 2);
    }
}

TEST_CASE("a waiter ending on another error after queueing leaves the queue", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(),
                               fail(dlock::Fault::internal, "script acquire.lua failed: boom")};
    backend.await_replies = {true};
    REQUIRE_FALSE(lock::acquire(backend, spec(10s)));
    CHECK(backend.release_calls.empty()); // its reply came: it holds nothing
    CHECK(backend.leave_calls.size() == 1);
}

TEST_CASE("a no-wait acquire does not retry a transient error", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::transient(), FakeBackend::acquired(1)};
    REQUIRE_FALSE(lock::acquire(backend, spec(0ms)));
    CHECK(backend.acquire_calls.size() == 1);
}

TEST_CASE("transient errors after the first contact are retried within the wait", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::transient(),
                               FakeBackend::transient(), FakeBackend::acquired(4)};
    backend.await_replies = {true};
    auto result = lock::acquire(backend, spec(10s));
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    CHECK(backend.acquire_calls.size() == 4);
}

TEST_CASE("a non-transient error ends the wait", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(),
                               fail(dlock::Fault::internal, "script acquire.lua failed: boom")};
    backend.await_replies = {true};
    auto result = lock::acquire(backend, spec(10s));
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::internal);
    CHECK(backend.acquire_calls.size() == 2);
}

TEST_CASE("transient errors past the wait deadline are returned", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other()};
    backend.acquire_default = FakeBackend::transient();
    backend.await_replies = {true};
    const auto start = Clock::now();
    auto result = lock::acquire(backend, spec(300ms));
    REQUIRE_FALSE(result);
    CHECK(result.error().transient);
    CHECK(since(start) >= 290ms);
    CHECK(since(start) < 3s);
}

TEST_CASE("a failed await_wake is followed by another attempt", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::held_by_other(), FakeBackend::acquired(2)};
    backend.await_replies = {FakeBackend::transient()};
    auto result = lock::acquire(backend, spec(10s));
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Acquired>(*result));
    CHECK(backend.acquire_calls.size() == 2);
}

TEST_CASE("re-entry reports the holds count", "[acquire]") {
    FakeBackend backend;
    backend.acquire_replies = {FakeBackend::acquired(12, 3)};
    auto result = lock::acquire(backend, spec(5s));
    REQUIRE(result);
    CHECK(std::get<lock::Acquired>(*result).holds == 3);
    CHECK(std::get<lock::Acquired>(*result).fence == 12);
}
