#pragma once

#include "util/duration.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

namespace dlock::lock {

// Redlock's arithmetic: a lease is held when a majority of N independent members granted it
// and what is left of it, after the round trip and an allowance for the members' clocks running
// fast, is still positive.

// The majority of `members`: floor(N/2) + 1.
inline size_t quorum(size_t members) {
    return members / 2 + 1;
}

// The allowance for clock drift over a lease of `ttl`: 1% of it, plus 2 ms (what Redlock's
// authors and the redsync and node-redlock clients use).
Millis clock_drift(Millis ttl);

// How long a lease of `ttl` taken (or renewed) by a round sent `elapsed` ago is still
// guaranteed: ttl - elapsed - clock_drift(ttl). Zero or less: not held, whatever the votes.
Millis validity(Millis ttl, std::chrono::steady_clock::duration elapsed);

// How far ahead of the clock a fencing token may sanely be: 365 days in microseconds (the same
// bound as lua/lib/fence.lua). Tokens start from a server clock in us and grow by one per
// acquisition, so an honest one is never ahead of its member's clock by more than the skew
// between members' clocks.
inline constexpr int64_t kFenceAheadMicros = 365LL * 86'400 * 1'000'000;

// The largest sane fencing token among the tokens a Redlock majority granted (`granted`, one per
// granting member, any order) out of `members`, with `now_us` the client's wall clock in us:
// kFenceAheadMicros above the larger of `now_us` and the (N - quorum + 1)-th largest granted
// token. A minority of members (at most N - quorum, Redlock's own assumption) cannot raise that
// reference, however large their tokens; the client's clock only raises it, so a client whose
// clock is far behind still accepts its honest members' tokens. A token above the bound, or
// below 1, is not used: its member counts as failed for that acquire.
int64_t fence_bound(std::span<const int64_t> granted, size_t members, int64_t now_us);

// Whether `token` is within [1, bound].
inline bool sane_fence(int64_t token, int64_t bound) {
    return token >= 1 && token <= bound;
}

} // namespace dlock::lock
