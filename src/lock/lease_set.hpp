#pragma once

#include "lock/held_lease.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace dlock::lock {

// The leases one `dlock run` holds, in the order they were taken, each with its own lease
// clock, all renewed by one watchdog (one thread, one connection). The command may run only
// while every one of them is guaranteed, so it must be stopped at the earliest of their stop
// deadlines.
class LeaseSet {
  public:
    using Clock = LeaseClock::Clock;

    // `open_backend` gives the watchdog its connection; `grace` is --kill-after;
    // `heartbeat` is passed on to the release scripts (how long silent waiters stay queued).
    LeaseSet(BackendFactory open_backend, Millis ttl, Millis grace, Millis heartbeat);
    ~LeaseSet(); // stops the renewals; releasing is up to the caller
    LeaseSet(const LeaseSet&) = delete;
    LeaseSet& operator=(const LeaseSet&) = delete;

    HeldLease& add(LeaseId id, const Acquired& acquired);
    bool empty() const { return leases_.empty(); }
    size_t size() const { return leases_.size(); }
    const HeldLease& operator[](size_t i) const { return *leases_[i]; }
    const HeldLease* find(std::string_view name) const;

    // Starts renewing every lease that is not renewed yet (the watchdog thread starts at the
    // first call).
    void start_renewals();
    // When the first renewal of a lease not renewed yet falls due (max() when there is none).
    Clock::time_point renewals_due() const;
    // The earliest stop deadline of all leases (see LeaseClock).
    Clock::time_point stop_at() const;
    // The lease that forces a stop: one that Redis says is no longer ours, else the one whose
    // stop deadline passed first; nullptr while every lease is guaranteed.
    const HeldLease* lost(Clock::time_point now = Clock::now()) const;
    // `listener` is called from a watchdog thread whenever a lease clock changed.
    void on_change(std::function<void()> listener);
    void stop_renewals();
    // Asks the watchdog to stop without waiting for a renewal under way (which may hang on a
    // stalled Redis): for a caller that must act now; stop_renewals() later waits for it.
    void request_stop_renewals();
    // Stops the watchdog thread, if one runs, so that start_renewals() can start renewing again
    // with a new one: before fork(), whose child keeps the leases (only the forking thread
    // exists in a child). The leases are not released.
    void pause_renewals();
    // How the run ended, for the release scripts (and so the history).
    struct Ending {
        bool after_loss = false;        // a lease already gone is expected, not worth a warning
        std::optional<int> exit_status; // what dlock returns for the command
        std::optional<Outcome> outcome; // how it ended, for the run counters (none: uncounted)
        Millis min_hold{0};             // --min-hold
        // Called for a lease no longer ours: gone or someone else's. A store answers a retry
        // of a release that ran (its reply lost) with "released", so this is a lost lease.
        std::function<void(const HeldLease&)> on_gone;
        // Called for a lease whose release failed (Redis unreachable, or an unexpected reply):
        // left to expire. A failure that is not transient is left to it to report.
        std::function<void(const HeldLease&, const Error&)> on_unreleased;
    };
    // Stops the renewals (none may follow a release), then releases every lease, newest first,
    // retrying connection errors for about a second in all; a lease that cannot be released
    // expires after its TTL.
    void release_all(Backend& backend, const Ending& ending);
    void release_all(Backend& backend); // after a rollback: no exit status, no minimum hold

  private:
    void changed();

    BackendFactory open_backend_;
    Millis ttl_;
    Millis grace_;
    Millis heartbeat_;
    std::mutex listener_mutex_;
    std::function<void()> listener_;
    std::vector<std::unique_ptr<HeldLease>> leases_;
    std::unique_ptr<Watchdog> watchdog_; // from the first start_renewals()
};

} // namespace dlock::lock
