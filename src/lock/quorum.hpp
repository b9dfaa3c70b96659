#pragma once

#include "util/duration.hpp"

#include <chrono>
#include <cstddef>

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

} // namespace dlock::lock
