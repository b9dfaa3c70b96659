#pragma once

#include "util/duration.hpp"

#include <chrono>
#include <csignal>
#include <functional>

namespace dlock::process {

// When and how a job that works under a lease is stopped: the one rule of `dlock run`'s
// supervisor (its command's process group) and `dlock acquire`'s keeper (the script's process
// group). The job gets `signal` once the lease can no longer be kept (`stop_at`) or its time is
// up (--max-run), and SIGKILL `grace` later, both before the lease can expire on the server.
class StopRule {
  public:
    using Clock = std::chrono::steady_clock;

    struct Policy {
        std::function<Clock::time_point()> stop_at;
        // When the job has run long enough (--max-run): stopped the same way, but it is the
        // job's time that is up, not the lease.
        Clock::time_point time_up_at = Clock::time_point::max();
        int signal = SIGTERM;
        Millis grace{5000};
        // Called once at `start_at` (e.g. starting the renewal thread when the first renewal is
        // due, so short jobs never pay for it).
        Clock::time_point start_at = Clock::time_point::max();
        std::function<void()> start;
    };

    // What the job must be sent now.
    enum class Action { none, stop, kill };

    explicit StopRule(const Policy& policy) : policy_(policy), started_(!policy.start) {}

    // Advances to `now`: runs `start` when it is due, and says what to send the job.
    Action at(Clock::time_point now);
    // The next moment at() has something to do.
    Clock::time_point next() const;

    bool stopped() const { return stopped_; }     // the lease was lost
    bool timed_out() const { return timed_out_; } // --max-run stopped it (first)
    Clock::time_point stopped_at() const { return stopped_at_; }
    bool stopping() const { return stopped_ || timed_out_; }
    // The job is gone: no SIGKILL is due any more.
    void ended() { kill_at_ = Clock::time_point::max(); }

  private:
    const Policy& policy_;
    bool started_;
    bool stopped_ = false;
    bool timed_out_ = false;
    Clock::time_point stopped_at_ = Clock::time_point::max();
    Clock::time_point kill_at_ = Clock::time_point::max();
};

} // namespace dlock::process
