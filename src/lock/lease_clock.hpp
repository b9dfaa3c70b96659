#pragma once

#include "lock/forced_release.hpp"
#include "util/duration.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>

namespace dlock::lock {

// A lease is renewed this many times per TTL: every renewal_interval(ttl). Two renewals may fail
// (a failover, a slow server) before the lease is at risk, and the command is stopped no later
// than one interval before the lease can expire (`--kill-after` may not exceed it).
inline constexpr int kRenewalsPerTtl = 3;
constexpr Millis renewal_interval(Millis ttl) {
    return ttl / kRenewalsPerTtl;
}

// The lease length of `dlock run` unless --ttl says otherwise.
inline constexpr Millis kDefaultTtl{30'000};
// Between the stop signal and SIGKILL after a lost lease unless --kill-after says otherwise: half
// a renewal interval, capped so that a long TTL does not leave a stuck command running for long.
inline constexpr int kKillAfterPerTtl = 2 * kRenewalsPerTtl;
inline constexpr Millis kMaxDefaultKillAfter{5'000};
constexpr Millis default_kill_after(Millis ttl) {
    return std::min(kMaxDefaultKillAfter, ttl / kKillAfterPerTtl);
}

// The client-side view of how long our lease is guaranteed to exist, on the monotonic clock.
// Redis keeps the key at least until (send time of the last successful renewal + TTL); the
// command must be dead before then, so it is told to stop at
//     stop_at = guaranteed_until - safety margin - kill grace.
// Written by the watchdog thread, read by the supervisor loop.
class LeaseClock {
  public:
    using Clock = std::chrono::steady_clock;

    LeaseClock(Clock::time_point acquired_sent_at, Millis ttl, Millis grace);

    // A renewal sent at `sent_at` succeeded.
    void renewed(Clock::time_point sent_at);
    // Redis says the lease is no longer ours: stop the command now. `by`: the `release --force`
    // that broke it, when the store found it. Called once, by the watchdog thread.
    void lost(std::optional<ForcedRelease> by = std::nullopt) {
        forced_ = std::move(by);
        lost_.store(true); // publishes forced_ to the thread that reads lost_ as true
    }

    bool confirmed_lost() const { return lost_.load(); }
    // Once confirmed_lost(): who broke the lease with `release --force`, when known.
    std::optional<ForcedRelease> forced() const {
        return confirmed_lost() ? forced_ : std::nullopt;
    }
    Clock::time_point guaranteed_until() const;
    Clock::time_point stop_at() const;
    // True once the command had to be stopped (lease lost, or could not be renewed in time).
    bool expired(Clock::time_point now = Clock::now()) const;

    static Millis safety_margin(Millis ttl);

  private:
    std::atomic<Clock::rep> guaranteed_until_;
    std::atomic<bool> lost_{false};
    std::optional<ForcedRelease> forced_; // written before lost_ is set, read only after
    Millis ttl_;
    Millis grace_;
};

} // namespace dlock::lock
