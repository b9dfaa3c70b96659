#include "process/supervisor.hpp"

#include "process/spawn.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dlock::process {
namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
// How long the group may take to vanish after SIGKILL before we give up waiting.
constexpr Millis kKillWait{5000};

sigset_t handled_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    // SIGCONT resumes us whether blocked or not; blocked, it also tells the loop it happened.
    sigaddset(&set, SIGCONT);
    for (int s : kForwarded)
        sigaddset(&set, s);
    return set;
}

int poll_timeout(Supervisor::Clock::time_point until) {
    auto left = std::chrono::duration_cast<Millis>(until - Supervisor::Clock::now()).count();
    return static_cast<int>(std::clamp<int64_t>(left + 1, 0, 60'000));
}

bool group_alive(pid_t pgid) {
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

bool is_terminal_stop(int signo) {
    return signo == SIGTSTP || signo == SIGTTIN || signo == SIGTTOU;
}

// Runs `f` with SIGTTOU blocked: a background process changing the terminal's foreground group
// would otherwise be stopped by it. (pthread_sigmask fails only on bad arguments: should it,
// `f` is not run, which leaves the terminal to the command's group.)
template <typename F>
void without_ttou(F f) {
    sigset_t ttou, old;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    if (const int err = pthread_sigmask(SIG_BLOCK, &ttou, &old); err != 0) {
        log::warn("cannot take the terminal back: {}", strerror(err));
        return;
    }
    f();
    if (const int err = pthread_sigmask(SIG_SETMASK, &old, nullptr); err != 0)
        log::warn("cannot unblock SIGTTOU: {}", strerror(err));
}

} // namespace

Result<Supervisor> Supervisor::create() {
    Supervisor s;
    sigset_t set = handled_signals();
    if (int err = pthread_sigmask(SIG_BLOCK, &set, &s.original_mask_); err != 0)
        return fail(Fault::internal,
                    fmt::format("cannot set up signal handling: {}", strerror(err)));
    s.signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    s.event_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (s.signal_fd_ < 0 || s.event_fd_ < 0 || prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        return fail(Fault::internal,
                    fmt::format("cannot set up signal handling: {}", strerror(errno)));
    return s;
}

Supervisor::Supervisor(Supervisor&& o) noexcept
    : signal_fd_(o.signal_fd_), event_fd_(o.event_fd_), original_mask_(o.original_mask_),
      owns_terminal_(o.owns_terminal_), guardian_(std::move(o.guardian_)), child_(o.child_),
      child_done_(o.child_done_), child_stopped_(o.child_stopped_),
      stopped_with_child_(o.stopped_with_child_), child_status_(o.child_status_) {
    o.signal_fd_ = o.event_fd_ = -1;
}

Supervisor::~Supervisor() {
    if (signal_fd_ >= 0)
        close(signal_fd_);
    if (event_fd_ >= 0)
        close(event_fd_);
}

Result<pid_t> Supervisor::spawn(const std::vector<std::string>& argv, Result<Guardian> guardian) {
    if (!guardian)
        return tl::unexpected(guardian.error());
    guardian_.emplace(std::move(*guardian));
    // An interactive command gets the terminal, or reading it would stop it with SIGTTIN.
    owns_terminal_ = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
    auto pid =
        process::spawn(SpawnOptions{argv, original_mask_, owns_terminal_, &guardian_->group()});
    if (!pid) {
        guardian_->disarm(); // the failed child has been reaped
        restore_terminal();
        return pid;
    }
    child_ = *pid;
    return pid;
}

void Supervisor::notify() const {
    uint64_t one = 1;
    (void)!write(event_fd_, &one, sizeof one);
}

void Supervisor::reap() {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG | WUNTRACED | WCONTINUED)) > 0) {
        if (pid != child_)
            continue; // an orphan of the command's, reparented to us
        if (WIFSTOPPED(status)) {
            child_stopped_ = true;
            if (is_terminal_stop(WSTOPSIG(status)))
                stop_with_command(WSTOPSIG(status));
        } else if (WIFCONTINUED(status)) {
            child_stopped_ = false;
        } else {
            child_done_ = true;
            child_status_ = status;
        }
    }
}

void Supervisor::signal_group(int signo) const {
    kill(-child_, signo);
    // A stopped process acts on a signal only once continued (as the shell's `kill` does).
    if (child_stopped_ && signo != SIGKILL && signo != SIGCONT)
        kill(-child_, SIGCONT);
}

// The command was stopped from the terminal (Ctrl-Z, or reading it in the background): stop
// dlock too, with the same signal, so the shell sees its job stopped and can `fg` or `bg` it.
void Supervisor::stop_with_command(int signo) {
    log::debug("the command was stopped by SIG{}; stopping with it", signal_name(signo));
    stopped_with_child_ = true;
    // The signal's default action stops us (it is not blocked), unless our process group is
    // orphaned: then nobody could resume us, and the kernel ignores it.
    kill(getpid(), signo);
}

// SIGCONT reached us (`fg`, `bg` or `kill -CONT`): resume the command, handing it the terminal
// if we are in the foreground (after `fg`, also when dlock was started in the background).
void Supervisor::resume_command() {
    if (!stopped_with_child_ && !child_stopped_)
        return;
    stopped_with_child_ = false;
    if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp()) {
        tcsetpgrp(STDIN_FILENO, child_);
        owns_terminal_ = true;
    }
    kill(-child_, SIGCONT);
}

void Supervisor::handle_signals() {
    // First learn whether the command stopped or ended: signals are read lowest number first,
    // so a TERM comes before the CHLD that says the command was stopped before it.
    reap();
    signalfd_siginfo info;
    while (read(signal_fd_, &info, sizeof info) == sizeof info) {
        int signo = static_cast<int>(info.ssi_signo);
        if (signo == SIGCHLD || child_done_)
            continue; // reaped above, and again below
        if (signo == SIGCONT) {
            resume_command();
            continue;
        }
        log::debug("forwarding SIG{} to the command", signal_name(signo));
        signal_group(signo);
    }
    uint64_t count;
    (void)!read(event_fd_, &count, sizeof count);
    reap();
}

Supervisor::Outcome Supervisor::wait(const StopPolicy& policy) {
    Outcome outcome;
    StopRule rule(policy);
    pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {event_fd_, POLLIN, 0}};
    reap();
    while (!child_done_) {
        switch (rule.at(Clock::now())) {
        case StopRule::Action::stop:
            log::debug("stopping the command with SIG{}", signal_name(policy.signal));
            signal_group(policy.signal);
            break;
        case StopRule::Action::kill:
            kill(-child_, SIGKILL);
            outcome.killed = true;
            break;
        case StopRule::Action::none:
            break;
        }
        const auto next = rule.next();
        if (poll(fds, 2, next == Clock::time_point::max() ? -1 : poll_timeout(next)) < 0 &&
            errno != EINTR)
            break;
        handle_signals();
    }
    outcome.stopped = rule.stopped();
    outcome.timed_out = rule.timed_out();
    outcome.stopped_at = rule.stopped_at();
    outcome.ended_at = Clock::now();
    outcome.wait_status = child_status_;
    outcome.had_terminal = owns_terminal_;
    if (drain_group(policy, outcome.stopped))
        outcome.killed = true;
    restore_terminal();
    return outcome;
}

bool Supervisor::drain_group(const StopPolicy& policy, bool kill_now) {
    if (!group_alive(child_)) {
        guardian_->dismiss(); // nothing left to guard: it exits while we release the lease
        return false;
    }
    log::info("the command left processes in its group; sending SIG{}", kill_now ? "KILL" : "TERM");
    kill(-child_, kill_now ? SIGKILL : SIGTERM);
    if (!kill_now)
        kill(-child_, SIGCONT); // stopped leftovers must be able to act on TERM
    auto kill_at = kill_now ? Clock::now() : Clock::now() + policy.grace;
    bool killed = kill_now;
    const auto give_up = kill_at + kKillWait;
    pollfd fds[1] = {{signal_fd_, POLLIN, 0}};
    while (group_alive(child_)) {
        auto now = Clock::now();
        if (!killed && now >= kill_at) {
            kill(-child_, SIGKILL);
            killed = true;
        }
        if (now >= give_up) {
            // The guardian stays armed: it tries again when dlock exits.
            log::error("processes of the command's group {} survive SIGKILL", child_);
            return true;
        }
        // Group members we do not parent do not send us SIGCHLD: re-check every 50 ms.
        poll(fds, 1, std::min(50, poll_timeout(killed ? give_up : kill_at)));
        handle_signals();
    }
    guardian_->dismiss(); // the group id may now be reused by anyone
    return killed;
}

void Supervisor::restore_terminal() {
    if (!owns_terminal_)
        return;
    // We are in the background now.
    without_ttou([] { tcsetpgrp(STDIN_FILENO, getpgrp()); });
    owns_terminal_ = false;
}

} // namespace dlock::process
