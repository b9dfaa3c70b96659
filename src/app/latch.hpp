#pragma once

#include "app/run.hpp"
#include "util/duration.hpp"
#include "util/exit_codes.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace dlock::app {

// EX_NOINPUT: the latch does not exist (never created, or its TTL ran out; also when it
// expires during `latch wait`, which says so).
inline constexpr int no_such_latch = 66;

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

// Each returns the exit status; every failure has been reported on stderr.
int latch_create(const Connection& connection, const LatchCreateOptions& options);
int latch_count_down(const Connection& connection, const LatchCountDownOptions& options);
int latch_wait(const Connection& connection, const LatchWaitOptions& options);
int latch_status(const Connection& connection, const LatchStatusOptions& options);

} // namespace dlock::app
