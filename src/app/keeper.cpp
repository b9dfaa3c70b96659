#include "app/keeper.hpp"

#include "app/run_history.hpp"
#include "process/hold_channel.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace dlock::app {
namespace {

using Clock = lock::LeaseSet::Clock;

// How a hold's end is counted (lock/runs.hpp): `dlock release` is a success, a stop the outcome
// of its cause; a hold whose owner exited is not counted (its exit status is not known).
std::optional<lock::Outcome> counted_as(std::optional<int> exit_status) {
    if (!exit_status)
        return std::nullopt;
    switch (*exit_status) {
    case exit_code::ok:
        return lock::Outcome::ok;
    case exit_code::lease_lost:
        return lock::Outcome::lost;
    case exit_code::timed_out:
        return lock::Outcome::timed_out;
    default:
        return lock::Outcome::failed;
    }
}

// How long a connected `dlock release` may take to send its request (it sends it at once): the
// loop waits meanwhile, so this must stay well below the lease's safety margin.
constexpr Millis kRequestWait{500};

int poll_timeout(Clock::time_point now, Clock::time_point at) {
    if (at == Clock::time_point::max())
        return -1;
    if (at <= now)
        return 0;
    // Rounded up: waking before `at` would only loop.
    return static_cast<int>(std::chrono::ceil<Millis>(at - now).count());
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

class Keeper {
  public:
    explicit Keeper(const Keeping& k);
    [[noreturn]] void run();

  private:
    enum class State { held, stopping, lost };
    Clock::time_point next_deadline() const;
    void on_time(Clock::time_point now);
    void lose(Clock::time_point now);
    void time_up(Clock::time_point now);
    void stop_owner(Clock::time_point now, std::string why);
    void record_max_run();
    // The leases after a loss: released (the loss recorded), the owner killed if `kill`.
    void end_loss(bool kill);
    // Releases every lease; the exit status and message for `dlock release`.
    std::pair<int, std::string> release(std::optional<int> exit_status);
    void on_request();
    // A stop signal sent to the keeper goes to the owner, as `dlock run` forwards one to its
    // command: the lock is the owner's, so it is held until the owner exits or releases it.
    void forward_signal();
    [[noreturn]] void quit(std::string_view why);

    const Keeping& k_;
    State state_ = State::held;
    Clock::time_point kill_at_ = Clock::time_point::max();
    std::string lost_message_; // why the owner was stopped: the answer to a release after it
    int stop_status_ = exit_code::lease_lost; // that release's status: 76, or 124 (--max-run)
    Clock::time_point time_up_at_ = Clock::time_point::max(); // --max-run
    bool timed_out_ = false;                                  // it passed: the owner stopped
    int wake_fd_;
    int signal_fd_;
    // Kept open to be given up when the descriptors run out (EMFILE): a connection that cannot
    // be accepted keeps the listener readable, and the loop would spin on it.
    int reserve_fd_;
};

Keeper::Keeper(const Keeping& k) : k_(k) {
    if (k_.options.max_run)
        time_up_at_ = Clock::now() + *k_.options.max_run;
    sigset_t stops;
    sigemptyset(&stops);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT})
        sigaddset(&stops, s);
    sigprocmask(SIG_BLOCK, &stops, nullptr); // before the watchdog thread: it inherits the mask
    signal(SIGPIPE, SIG_IGN);
    signal_fd_ = signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
    k_.leases.on_change([fd = wake_fd_] {
        const uint64_t one = 1;
        (void)!write(fd, &one, sizeof one);
    });
}

Clock::time_point Keeper::next_deadline() const {
    if (state_ == State::held)
        return std::min({k_.leases.renewals_due() - Millis(1), k_.leases.stop_at(), time_up_at_});
    return state_ == State::stopping ? kill_at_ : Clock::time_point::max();
}

void Keeper::on_time(Clock::time_point now) {
    if (state_ == State::held) {
        if (k_.leases.lost(now))
            lose(now);
        else if (now >= time_up_at_)
            time_up(now);
        else if (now >= k_.leases.renewals_due() - Millis(1))
            k_.leases.start_renewals();
    }
    if (state_ == State::stopping && now >= kill_at_)
        end_loss(true);
}

void Keeper::lose(Clock::time_point now) {
    const lock::HeldLease* lost = k_.leases.lost(now);
    const std::string how = lost->clock().confirmed_lost() ? "it was released or taken over"
                                                           : "it could not be renewed in time";
    stop_owner(now, fmt::format("lost the lease on {} while it was held: {}", lost->name(), how));
}

// --max-run: the owner held the lock too long. The leases are still ours: they are released
// once the owner is stopped, the time-up recorded first (end_loss: Redis is not waited on before
// the owner is signalled).
void Keeper::time_up(Clock::time_point now) {
    stop_status_ = exit_code::timed_out;
    timed_out_ = true;
    stop_owner(now, fmt::format("{} held the lock longer than --max-run {}",
                                k_.options.command_line, format_duration(*k_.options.max_run)));
}

// The owner gets the stop signal now and SIGKILL after --kill-after (end_loss). Nothing here
// waits: a renewal hung on a stalled Redis must not hold up the signal, which has to come
// before the lease can expire. The watchdog is only asked to stop; release() waits for it.
void Keeper::stop_owner(Clock::time_point now, std::string why) {
    const bool signalled = k_.owner.signal(k_.options.lost_signal);
    if (signalled && k_.options.lost_signal != SIGCONT)
        k_.owner.signal(SIGCONT); // a stopped owner must be able to act on the signal
    k_.leases.request_stop_renewals();
    lost_message_ = why + (signalled ? fmt::format("; process {} was sent SIG{}", k_.owner.pid(),
                                                   signal_name(k_.options.lost_signal))
                                     : "");
    log::error("{}", lost_message_);
    state_ = State::stopping;
    kill_at_ = now + k_.options.kill_after;
}

void Keeper::record_max_run() {
    if (lock::History* history = k_.backend.history())
        for (size_t i = 0; i < k_.leases.size(); ++i)
            record_time_up(*history, k_.leases[i].keys(), k_.self, k_.leases[i].shared(),
                           k_.leases[i].fence(), *k_.options.max_run);
}

void Keeper::end_loss(bool kill) {
    if (kill && k_.owner.alive()) {
        log::warn("process {} still runs {} after the lost lease: SIGKILL", k_.owner.pid(),
                  format_duration(k_.options.kill_after));
        k_.owner.signal(SIGKILL);
    }
    if (timed_out_)
        record_max_run();
    release(stop_status_);
    state_ = State::lost;
}

std::pair<int, std::string> Keeper::release(std::optional<int> exit_status) {
    k_.leases.stop_renewals();
    std::vector<std::string> gone, names;
    std::optional<Error> failed;
    lock::LeaseSet::Ending ending;
    ending.after_loss = state_ != State::held;
    ending.exit_status = exit_status;
    ending.outcome = counted_as(exit_status);
    ending.min_hold = k_.options.min_hold;
    lock::History* history = k_.backend.history();
    ending.on_gone = [&](const lock::HeldLease& lease) {
        if (history)
            record_lost_lease(*history, lease.keys(), k_.self, lease.shared(), lease.fence(),
                              lease.held_for(), exit_code::lease_lost);
        gone.push_back(lease.name());
    };
    ending.on_unreleased = [&](const lock::HeldLease& lease, const Error& error) {
        if (!failed)
            failed =
                Error{error.fault,
                      fmt::format("could not release {}: {}; it expires by itself within {}",
                                  lease.name(), error.message, format_duration(k_.options.ttl))};
    };
    for (size_t i = 0; i < k_.leases.size(); ++i)
        names.push_back(k_.leases[i].name());
    k_.leases.release_all(k_.backend, ending);
    if (!gone.empty() && state_ != State::held && stop_status_ != exit_code::lease_lost) {
        // --max-run stopped the owner, and a lease was lost meanwhile: lost wins, as in run.
        stop_status_ = exit_code::lease_lost;
        lost_message_ += fmt::format("; the lease on {} was lost meanwhile", joined(gone));
    }
    if (!gone.empty() && state_ == State::held)
        return {exit_code::lease_lost,
                fmt::format("the lease on {} was lost before the release: it was released or "
                            "taken over",
                            joined(gone))};
    if (failed)
        return {exit_code::of(failed->fault), failed->message};
    return {0, fmt::format("released {}", joined(names))};
}

void Keeper::on_request() {
    auto request = process::accept_hold_request(k_.listener, kRequestWait);
    if (request.fd < 0 && (errno == EMFILE || errno == ENFILE)) {
        // Out of descriptors: the reserve makes room to take the connection off the queue and
        // say so, else the listener would stay readable and the loop spin on it.
        if (reserve_fd_ >= 0)
            close(reserve_fd_);
        process::HoldRequest refused;
        refused.fd = accept4(k_.listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (refused.fd >= 0)
            process::answer_hold_request(refused, exit_code::internal,
                                         "the keeper ran out of file descriptors (RLIMIT_NOFILE) "
                                         "and cannot take the request; the lock is still held");
        else
            poll(nullptr, 0, 100); // no reserve either: at least do not spin
        reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return;
    }
    if (request.fd < 0)
        return;
    if (!request.release || !request.allowed) {
        process::answer_hold_request(
            request, exit_code::usage,
            request.release ? fmt::format("this hold belongs to uid {}: only that user or root "
                                          "may release it",
                                          getuid())
                            : "the keeper understands only a release request");
        return;
    }
    // (A release that is the owner itself: a shell that ran it by exec, as the last command
    // of `sh -c`.)
    if (request.from_script != 0 && request.from_script != k_.owner.pid() &&
        request.from_script != k_.script && request.pid != k_.owner.pid()) {
        process::answer_hold_request(
            request, exit_code::usage,
            fmt::format("DLOCK_HOLD was inherited: the hold is kept for process {} ({}), and "
                        "this release runs in process {}; release it from that script, or pass "
                        "--hold \"$DLOCK_HOLD\" to release it from here on purpose",
                        k_.owner.pid(), k_.options.command_line, request.from_script));
        return;
    }
    if (state_ == State::held) {
        const auto [status, message] = release(0);
        log::info("{}", message);
        process::answer_hold_request(request, status, message);
        _exit(0);
    }
    if (state_ == State::stopping) // the owner lets go: no need to kill it
        end_loss(false);
    process::answer_hold_request(request, stop_status_, lost_message_);
    _exit(0);
}

void Keeper::forward_signal() {
    signalfd_siginfo info{};
    while (read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
        const int sig = static_cast<int>(info.ssi_signo);
        log::info("the keeper got SIG{}: sent to process {}", signal_name(sig), k_.owner.pid());
        k_.owner.signal(sig);
    }
}

void Keeper::quit(std::string_view why) {
    if (state_ == State::held) {
        const auto [status, message] = release(std::nullopt);
        log::info("{}: {}", why, message);
    } else if (state_ == State::stopping) {
        end_loss(false);
    }
    _exit(0);
}

void Keeper::run() {
    for (;;) {
        on_time(Clock::now());
        std::array<pollfd, 4> fds{{{k_.owner.fd(), POLLIN, 0},
                                   {k_.listener, POLLIN, 0},
                                   {signal_fd_, POLLIN, 0},
                                   {wake_fd_, POLLIN, 0}}};
        if (poll(fds.data(), fds.size(), poll_timeout(Clock::now(), next_deadline())) < 0)
            continue; // EINTR
        if (fds[3].revents != 0) {
            uint64_t count;
            (void)!read(wake_fd_, &count, sizeof count);
        }
        if (fds[2].revents != 0)
            forward_signal();
        if (fds[0].revents != 0)
            quit(fmt::format("process {} exited", k_.owner.pid()));
        if (fds[1].revents != 0)
            on_request();
    }
}

} // namespace

void keep(const Keeping& keeping) {
    Keeper keeper(keeping);
    keeper.run();
}

void detach_from_caller(int null) {
    setsid();
    // The caller's other descriptors first: once 0-2 are replaced, the caller's `$(...)` may
    // return, and by then nothing of the caller's may be left open here.
    std::vector<int> inherited;
    if (DIR* dir = opendir("/proc/self/fd")) {
        while (const dirent* entry = readdir(dir)) {
            const int fd = atoi(entry->d_name);
            const int flags = fd > 2 && fd != dirfd(dir) ? fcntl(fd, F_GETFD) : -1;
            if (flags >= 0 && (flags & FD_CLOEXEC) == 0)
                inherited.push_back(fd);
        }
        closedir(dir);
    }
    for (int fd : inherited)
        close(fd);
    for (int fd = 0; fd <= 2; ++fd)
        dup2(null, fd); // dup2 clears close-on-exec: these three stay 0-2
    if (null > 2)
        close(null);
    (void)!chdir("/"); // the caller's directory, maybe on a mount to unmount, is not pinned
}

} // namespace dlock::app
