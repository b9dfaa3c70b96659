#pragma once

#include "lock/acquire.hpp"
#include "lock/lease_clock.hpp"
#include "lock/watchdog.hpp"

#include <optional>
#include <string>

namespace dlock::lock {

// What identifies one lease: the name, its keys, and the owner token and hold id it was
// requested with (both needed to renew and release it).
struct LeaseId {
    std::string name;
    Keys keys;
    std::string owner;
    std::string hold_id;
};

// One lease this process holds: its identity and its lease clock, which the run's watchdog
// moves forward once it renews the lease. Not movable: the watchdog refers to it.
class HeldLease {
  public:
    using Clock = LeaseClock::Clock;

    HeldLease(LeaseId id, const Acquired& acquired, Millis ttl, Millis grace);
    HeldLease(const HeldLease&) = delete;
    HeldLease& operator=(const HeldLease&) = delete;

    const std::string& name() const { return id_.name; }
    const std::string& hold_id() const { return id_.hold_id; }
    const std::string& owner() const { return id_.owner; }
    int64_t fence() const { return acquired_.fence; }
    int64_t holds() const { return acquired_.holds; }
    bool shared() const { return acquired_.shared; }
    const LeaseClock& clock() const { return clock_; }
    const Keys& keys() const { return id_.keys; }
    // How long it has been held (monotonic clock, from the acquire request).
    Millis held_for() const;

    // When its first renewal falls due (the watchdog is started lazily, by then).
    Clock::time_point first_renewal() const { return acquired_.sent_at + renewal_interval(ttl_); }
    bool renewing() const { return renewing_; }
    // Hands it to `watchdog` (once), which renews it until stopped.
    void start_renewing(Watchdog& watchdog);
    // The watchdog it was handed to has stopped (LeaseSet::pause_renewals): hand it over again.
    void stop_renewing() { renewing_ = false; }
    // Holds left (0: released), or nullopt when it was no longer ours. `exit_status` is the
    // command's, for the history, and `outcome` how it ended, for the run counters;
    // `min_hold` keeps an exclusive lease until acquisition + it.
    Result<std::optional<int64_t>> release(Backend& backend, Millis heartbeat,
                                           std::optional<int> exit_status = std::nullopt,
                                           Millis min_hold = Millis(0),
                                           std::optional<Outcome> outcome = std::nullopt);

  private:
    LeaseId id_;
    Acquired acquired_;
    Millis ttl_;
    LeaseClock clock_;
    bool renewing_ = false;
};

} // namespace dlock::lock
