#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"
#include "util/exit_codes.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace dlock::app {

// Limits of `dlock latch create COUNT` and `count-down N`.
inline constexpr int64_t kMaxLatchCount = 1'000'000'000;
inline constexpr Millis kDefaultLatchTtl{24 * 3600 * 1000};
inline constexpr Millis kMaxLatchTtl{365LL * 24 * 3600 * 1000};

// Parses a positive integer 1..kMaxLatchCount (digits only); `what` names it in the message.
Result<int64_t> parse_latch_count(std::string_view text, std::string_view what);

struct LatchCreateOptions {
    std::string name;
    int64_t count = 0;
    Millis ttl = kDefaultLatchTtl;
    bool reset = false; // start a new round at `count`, whatever the latch's state
};

struct LatchCountDownOptions {
    std::string name;
    int64_t n = 1;
};

struct LatchWaitOptions {
    std::string name;
    std::optional<Millis> wait; // nullopt: no limit (the latch's TTL still ends the wait)
    int timeout_exit_code = exit_code::busy;
};

struct LatchStatusOptions {
    std::string name;
    bool json = false;
};

// How long a waiter's registration lives without a refresh; it refreshes every round (<= 1s).
inline constexpr Millis kLatchWaiterHeartbeat{3000};
// Longest single BLPOP of a waiter.
inline constexpr Millis kLatchWaitRound{1000};

// Each returns dlock's exit status: 0, or for latch_wait the timeout exit status after its
// warning; a failure (exit_code::no_such_latch included) as an Error, not yet reported. A
// store without latches is refused.
Result<int> latch_create(lock::Store& store, const Target& target,
                         const LatchCreateOptions& options);
Result<int> latch_count_down(lock::Store& store, const Target& target,
                             const LatchCountDownOptions& options);
Result<int> latch_wait(lock::Store& store, const Target& target, const LatchWaitOptions& options);
Result<int> latch_status(lock::Store& store, const Target& target,
                         const LatchStatusOptions& options);

} // namespace dlock::app
