#pragma once

#include "lock/backend.hpp"
#include "lock/lease_clock.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace dlock::lock {

// Renews every lease of a run from one thread and one Redis connection, however many there
// are: each round renews all of them in one pipelined round trip, a third of the TTL after the
// previous one was sent. Each lease keeps its own lease clock: a renewal moves it forward; "not
// ours" marks that lease lost (and only it: it is not renewed again) and calls `on_change`, so
// the supervisor re-checks the stop deadline; errors are retried, with a new connection after
// an I/O error, until the lease clock says it is too late. An outage is reported twice, not
// once per retry: a warning when renewals start failing (with the time the command will be
// stopped) and one when they succeed again; a lost lease is the supervisor's to report.
// Leases can be added while it runs (a multi-name run renews the names it holds while it waits
// for the next one). stop() ends the renewals; the leases are released after it.
class Watchdog {
  public:
    using Clock = LeaseClock::Clock;

    Watchdog(BackendFactory open_backend, Millis ttl, std::function<void()> on_change);
    ~Watchdog(); // stops
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // Renews `lease` from now on; what it refers to, and `clock`, must outlive stop(). The
    // thread starts at the first call. Ignored after stop(). `name` is for the messages.
    void add(const RenewRequest& lease, LeaseClock& clock, std::string name = {});
    // No renewal is sent after this returns. Final.
    void stop();
    // Asks the thread to stop without waiting for it: a renewal under way (a stalled Redis)
    // still ends in its own time, but no round starts after it. stop() later joins the thread.
    void request_stop();

  private:
    struct Entry {
        RenewRequest request;
        LeaseClock* clock;
        std::string name;
        Clock::time_point due; // of its next renewal
        bool done = false;     // lost, or too late to renew: left alone
    };

    void start();
    void loop();
    // Blocks until a lease is due or stop(); false when stopping. Returns the leases to renew.
    bool wait_for_round(std::vector<Entry*>& round);
    void renew(std::unique_ptr<Backend>& backend, const std::vector<Entry*>& round);
    // Reports a failed round: a warning for the first failure of an outage, debug after it.
    void report_failure(const std::vector<Entry*>& round, const Error& failure);
    void report_recovery(const std::vector<Entry*>& round);

    BackendFactory open_backend_;
    Millis ttl_;
    std::function<void()> on_change_;

    std::mutex mutex_; // guards entries_ (the deque keeps them in place) and stopping_
    std::condition_variable wakeup_;
    std::deque<Entry> entries_;
    bool stopping_ = false;
    std::thread thread_;
    bool failing_ = false; // since the last successful renewal; only the thread touches it
};

} // namespace dlock::lock
