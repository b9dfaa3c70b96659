#pragma once

#include "lock/keys.hpp"
#include "lock/status.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock::redis {

// The latch scripts (lua/latch_*.lua) over one ScriptSession. Each script is retried on
// transient errors (3 tries, 200 ms apart) with the same arguments, which is safe: create is
// idempotent, count-down carries a request id, wait and leave only (re)register or unregister
// the waiter. A server never reached is reported at once.
class LatchStore {
  public:
    explicit LatchStore(Deployment deployment) : session_(std::move(deployment)) {}

    struct Created {
        enum class Outcome {
            created,
            refreshed, // existed with the same initial count: its TTL was refreshed
            conflict,  // exists with another initial count: nothing changed
        };
        Outcome outcome = Outcome::created;
        int64_t count = 0; // now
        int64_t initial = 0;
    };
    Result<Created> create(const lock::LatchKeys& keys, int64_t count, Millis ttl);

    struct CountedDown {
        bool exists = false;
        int64_t count = 0; // afterwards (unchanged when `request_id` was already applied)
        int64_t woken = 0; // waiters woken (when it reached zero)
    };
    // Counts down by `n`, once per `request_id`; a wake list pushed lives `wake_ttl`.
    Result<CountedDown> count_down(const lock::LatchKeys& keys, int64_t n,
                                   std::string_view request_id, Millis wake_ttl);

    // One round of a waiter: the latch is checked and, while above zero, the waiter is
    // registered (or refreshed) for `heartbeat`.
    struct Round {
        enum class State { missing, done, waiting };
        State state = State::missing;
        int64_t count = 0; // when waiting: above zero
    };
    Result<Round> wait_round(const lock::LatchKeys& keys, std::string_view waiter_id,
                             Millis heartbeat);
    Result<void> leave(const lock::LatchKeys& keys, std::string_view waiter_id);
    // Blocks until a token is pushed to the waiter's wake list (true) or `block` passes
    // (false). A transient error counts as no token, after a pause: the next round reconnects
    // and re-checks.
    Result<bool> await_token(const lock::LatchKeys& keys, std::string_view waiter_id, Millis block);

    // The latch, nullopt when it does not exist; ttl_left -1 ms: no expiry.
    Result<std::optional<lock::LatchStatus>> status(const lock::LatchKeys& keys);

  private:
    Result<Reply> run(const EmbeddedScript& script, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args);

    ScriptSession session_;
};

} // namespace dlock::redis
