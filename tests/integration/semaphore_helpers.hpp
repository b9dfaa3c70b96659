#pragma once

// Helpers for the semaphore tests that drive lua/sem_*.lua through redis::SemaphoreBackend.

#include "integration/lock_helpers.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace dlock::test {

// The semaphore every semaphore test uses.
inline const lock::Keys kPoolKeys = lock::Keys::of("dlock", "pool");

inline std::unique_ptr<redis::SemaphoreBackend> open_semaphore(const RedisServer& server,
                                                               int64_t limit) {
    auto backend = std::make_unique<redis::SemaphoreBackend>(connect_options(server.url()), limit);
    if (auto connected = backend->connect(); !connected)
        FAIL(connected.error().message);
    return backend;
}

// Holder `id` asks for permit "permit-<id>"; with `queue`, it waits as waiter "w-<id>".
inline lock::AcquireOutcome ask(redis::SemaphoreBackend& b, const std::string& id,
                                bool queue = false, Millis ttl = std::chrono::seconds(30),
                                Millis heartbeat = std::chrono::seconds(3)) {
    return ok(b.acquire(kPoolKeys, request("owner-" + id, "permit-" + id, ttl,
                                           queue ? "w-" + id : "", heartbeat, id)));
}

// Every permit taken, by holders `holders`, then `waiters` queued behind them in that order, each
// arriving a little after the one before.
inline void fill_and_queue(redis::SemaphoreBackend& b, std::initializer_list<const char*> holders,
                           const std::vector<std::string>& waiters) {
    for (const auto* id : holders)
        REQUIRE(ask(b, id).acquired);
    for (const auto& id : waiters) {
        REQUIRE_FALSE(ask(b, id, true).acquired);
        std::this_thread::sleep_for(std::chrono::milliseconds(2)); // distinct arrival times
    }
}

} // namespace dlock::test
