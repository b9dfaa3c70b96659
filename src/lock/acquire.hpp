#pragma once

#include "lock/backend.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <variant>

namespace dlock::lock {

struct AcquireSpec {
    Keys keys;
    AcquireRequest request;     // waiter_id is filled in when waiting
    std::optional<Millis> wait; // nullopt: wait forever; 0: do not wait
    // Checked before every block: true ends the wait as refused (the caller knows why), e.g.
    // because a lease taken earlier for the same command was lost meanwhile.
    std::function<bool()> abandon = nullptr;
    // Called before every block of the wait with what was last seen (to show the wait): no
    // Redis call of its own, so the wait's timing does not depend on it.
    std::function<void(const AcquireOutcome&)> on_wait = nullptr;
};

struct Acquired {
    int64_t fence = 0;
    int64_t holds = 0;
    bool shared = false; // granted as a shared hold
    // When the successful acquire was sent: the lease lasts at least until this + ttl.
    std::chrono::steady_clock::time_point sent_at;
    int64_t permit_limit = 0; // a semaphore permit: the limit (0: not a permit)
    int64_t permits_held = 0; // and the permits held, ours included
};

struct Refused {
    AcquireOutcome last;    // the holder and queue as last seen
    bool timed_out = false; // waited and gave up (vs. no-wait refusal)
};

using AcquireResult = Result<std::variant<Acquired, Refused>>;

// Takes the lease, waiting in the FIFO queue if allowed. Waiting is event-driven: each round
// blocks on this waiter's wake list, bounded by the remaining wait, the holder's lease (or, when
// the lock is free but others are queued first, the first heartbeat in the queue) and our own
// heartbeat, so a lost wake-up, an expiry without release or a dead waiter ahead only delays,
// never hangs. The wait deadline is absolute across retries and reconnects. A paused name
// (AcquireOutcome::paused) is refused at once, however long the wait.
// A waiter retries transient errors (a reset connection, a timeout, Redis loading or busy)
// until its deadline, with a short backoff and the same hold id and waiter id, so a retry after
// a lost reply is a replay. A caller that gives up after a lost reply first gives back that
// hold id and leaves the queue (the lost call may have run). An error that is not transient,
// such as a Redis never reached, is returned at once.
// A hold the store granted but that it reported unreplicated (AcquireOutcome::unreplicated) is
// given back at once and handled as the transient error it carries.
AcquireResult acquire(Backend& backend, AcquireSpec spec);

// Gives back a hold that an acquire with `request` may have taken but that nobody will keep: an
// unanswered acquire, one the store granted unreplicated, a Redlock member's vote that did not
// make a majority. By hold id, so where it was never taken nothing changes; a shared request
// is also tried as exclusive, since an exclusive owner asking for shared re-enters exclusively.
// Not a release of a lease that ran a command: no exit status, no --min-hold. The one place
// that decides how a hold goes back.
Result<std::optional<int64_t>> give_back(Backend& backend, const Keys& keys,
                                         const AcquireRequest& request);

} // namespace dlock::lock
