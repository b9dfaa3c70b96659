#pragma once

#include "lock/keys.hpp"
#include "lock/status.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dlock::lock {

// The latch calls of a store (`dlock latch`). Every call may be sent again with the same
// arguments: create is idempotent (a reset carries a request id), count-down carries a request
// id, wait and leave only (re)register or unregister the waiter.
class Latches {
  public:
    virtual ~Latches() = default;

    struct Created {
        enum class Outcome {
            created,
            refreshed, // existed with the same initial count: its TTL was refreshed
            conflict,  // exists with another initial count: nothing changed
            finished,  // exists and reached zero: nothing changed (a new round needs a reset)
            reset,     // a new round started over an existing latch
        };
        Outcome outcome = Outcome::created;
        int64_t count = 0; // now; for `reset`, the previous round's
        int64_t initial = 0;
    };
    // With a `reset_id`, starts a new round at `count` whatever the latch's state (once per id);
    // waiters still registered then wait for the new round.
    virtual Result<Created> create(const LatchKeys& keys, int64_t count, Millis ttl,
                                   std::string_view reset_id = {}) = 0;

    struct CountedDown {
        bool exists = false;
        int64_t count = 0; // afterwards (unchanged when `request_id` was already applied)
        int64_t woken = 0; // waiters woken (when it reached zero)
    };
    // Counts down by `n`, once per `request_id`; a wake list pushed lives `wake_ttl`.
    virtual Result<CountedDown> count_down(const LatchKeys& keys, int64_t n,
                                           std::string_view request_id, Millis wake_ttl) = 0;

    // One round of a waiter: the latch is checked and, while above zero, the waiter is
    // registered (or refreshed) for `heartbeat`.
    struct Round {
        enum class State { missing, done, waiting };
        State state = State::missing;
        int64_t count = 0; // when waiting: above zero
    };
    virtual Result<Round> wait_round(const LatchKeys& keys, std::string_view waiter_id,
                                     Millis heartbeat) = 0;
    virtual Result<void> leave(const LatchKeys& keys, std::string_view waiter_id) = 0;
    // Blocks until a token is pushed to the waiter's wake list (true) or `block` passes
    // (false). A transient error counts as no token, after a pause: the next round re-checks.
    virtual Result<bool> await_token(const LatchKeys& keys, std::string_view waiter_id,
                                     Millis block) = 0;

    // The latch, nullopt when it does not exist; ttl_left -1 ms: no expiry.
    virtual Result<std::optional<LatchStatus>> status(const LatchKeys& keys) = 0;
};

} // namespace dlock::lock
