#pragma once

#include "process/guardian.hpp"
#include "process/stop_rule.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <chrono>
#include <csignal>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::process {

// Runs one command and stays with it until it and its whole process group are gone:
// forwards INT, TERM, HUP, QUIT, USR1 and USR2 to the group, reaps (dlock is a child
// subreaper, so orphaned grandchildren come back to it), and stops the group when told to.
// Signals are taken synchronously through a signalfd; nothing runs in a signal handler.
// Job control: when the command is stopped from the terminal (TSTP, TTIN, TTOU), dlock stops
// with it, so the shell sees the job stop; SIGCONT resumes both. A guardian process kills the
// group should dlock die without clearing up.
class Supervisor {
  public:
    using Clock = std::chrono::steady_clock;

    // When to stop the command and how: the rule `dlock acquire`'s keeper applies too.
    using StopPolicy = StopRule::Policy;

    struct Outcome {
        int wait_status = 0;
        bool stopped = false;   // the policy stopped it: the lease was lost
        bool timed_out = false; // it was stopped at time_up_at (and only then, if not `stopped`)
        // When the policy stopped it, and when the command was seen to end. Both are later
        // than the events themselves if dlock was paused (SIGSTOP, a frozen VM) meanwhile.
        Clock::time_point stopped_at = Clock::time_point::max();
        Clock::time_point ended_at;
        // The command had the terminal: keys like Ctrl-C reached its group instead of ours.
        bool had_terminal = false;
        // SIGKILL went to the command's group: the command or a process it left outlived the
        // stop signal (or the stop signal was SIGKILL).
        bool killed = false;
    };

    // Blocks the handled signals in the calling thread; call it before starting threads so
    // they inherit the mask and the signals reach the signalfd.
    static Result<Supervisor> create();
    ~Supervisor();
    Supervisor(Supervisor&& other) noexcept;
    Supervisor(const Supervisor&) = delete;
    Supervisor& operator=(const Supervisor&) = delete;
    Supervisor& operator=(Supervisor&&) = delete;

    // Starts the command under `guardian` (Guardian::start(), called earlier so that it could
    // overlap other work, or now).
    Result<pid_t> spawn(const std::vector<std::string>& argv, Result<Guardian> guardian);

    // Thread-safe: makes wait() re-read the stop deadline now.
    void notify() const;

    // Waits for the command; afterwards ends anything it left in its process group (TERM,
    // then KILL after the grace period) so nothing runs outside the lock.
    Outcome wait(const StopPolicy& policy);

  private:
    Supervisor() = default;
    void handle_signals();
    void reap();
    void signal_group(int signo) const;
    void stop_with_command(int signo);
    void resume_command();
    // True when the leftovers needed SIGKILL.
    bool drain_group(const StopPolicy& policy, bool kill_now);
    void restore_terminal();

    int signal_fd_ = -1;
    int event_fd_ = -1;
    sigset_t original_mask_{};
    bool owns_terminal_ = false;
    std::optional<Guardian> guardian_;
    pid_t child_ = -1;
    bool child_done_ = false;
    bool child_stopped_ = false;      // stopped by a signal, as far as we know
    bool stopped_with_child_ = false; // we stopped ourselves for job control
    int child_status_ = 0;
};

} // namespace dlock::process
