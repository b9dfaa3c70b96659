#include "lock/acquire.hpp"

#include "util/log.hpp"
#include "util/random.hpp"

#include <algorithm>
#include <thread>

namespace dlock::lock {
namespace {

using Clock = std::chrono::steady_clock;

// Pause before retrying after a connection error, so a Redis restart is not hammered.
constexpr Millis kRetryPause{100};

Millis until(Clock::time_point deadline) {
    return std::max(Millis(0), std::chrono::duration_cast<Millis>(deadline - Clock::now()));
}

bool abandoned(const AcquireSpec& spec) {
    return spec.abandon && spec.abandon();
}

} // namespace

AcquireResult acquire(Backend& backend, AcquireSpec spec) {
    const bool may_wait = !spec.wait || spec.wait->count() > 0;
    const auto deadline = spec.wait ? Clock::now() + *spec.wait : Clock::time_point::max();
    if (may_wait)
        spec.request.waiter_id = random_hex(8);
    // A waiter re-runs the acquire script at least this often, refreshing its heartbeat.
    const Millis slice = spec.request.heartbeat / 3;

    AcquireOutcome last;
    bool attempted = false;
    for (;;) {
        const auto sent_at = Clock::now();
        auto outcome = backend.acquire(spec.keys, spec.request);
        if (!outcome) {
            // Only a waiter retries, and only within its deadline; the first contact with
            // Redis fails fast so an unreachable server is reported at once.
            if (!outcome.error().transient || !may_wait || !attempted ||
                until(deadline) == Millis(0) || abandoned(spec))
                return tl::unexpected(outcome.error());
            log::debug("acquire {}: {}; retrying", spec.keys.lock, outcome.error().message);
            std::this_thread::sleep_for(std::min(kRetryPause, until(deadline)));
            continue;
        }
        attempted = true;
        if (outcome->acquired)
            return Acquired{outcome->fence, outcome->holds,        outcome->shared,
                            sent_at,        outcome->permit_limit, outcome->permits_held};
        last = *outcome;

        const Millis left = until(deadline);
        if (!may_wait || left == Millis(0) || abandoned(spec)) {
            if (may_wait)
                (void)backend.leave_queue(spec.keys, spec.request.waiter_id,
                                          spec.request.heartbeat);
            return Refused{last, may_wait};
        }
        // Block until woken, but never past our deadline, our next heartbeat, or the moment
        // the holder's lease would expire without a release (+ a little slack).
        Millis block = std::min(left, slice);
        if (last.holder && last.lease_left.count() >= 0)
            block = std::min(block, last.lease_left + Millis(5));
        block = std::max(block, Millis(1));
        auto woken = backend.await_wake(spec.keys, spec.request.waiter_id, block);
        if (!woken) {
            log::debug("waiting for {}: {}; retrying", spec.keys.lock, woken.error().message);
            std::this_thread::sleep_for(std::min(kRetryPause, until(deadline)));
        }
    }
}

} // namespace dlock::lock
