#include "app/keeper.hpp"

#include "app/forget.hpp"
#include "app/run_history.hpp"
#include "app/stop_policy.hpp"
#include "lock/describe.hpp"
#include "process/guardian.hpp"
#include "process/hold_channel.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"

#include <algorithm>
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

// How long a connected `dlock release` may take to send its request (it sends it at once): the
// loop waits meanwhile, so this must stay well below the lease's safety margin.
constexpr Millis kRequestWait{500};
// How often a group being stopped is looked at once its owner has exited.
constexpr Millis kGroupPoll{50};

int poll_timeout(Clock::time_point now, Clock::time_point at) {
    if (at == Clock::time_point::max())
        return -1;
    if (at <= now)
        return 0;
    // Rounded up: waking before `at` would only loop.
    return static_cast<int>(std::chrono::ceil<Millis>(at - now).count());
}

// Why the hold was lost, to follow "lost the lease on NAME while it was held: ".
std::string loss_cause(const lock::HeldLease* lost) {
    if (!lost || !lost->clock().confirmed_lost())
        return "it could not be renewed in time";
    if (const auto forced = lost->clock().forced())
        return lock::describe_force(*forced, wall_now_ms());
    return "it was released or taken over";
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

// The keeper's three states follow from the stop rule (process/stop_rule.hpp), the rule of
// `dlock run` too: *held* until it stops the owner's group, *stopping* until the group is
// killed or gone, then *released* (the leases given back, the loss recorded).
class Keeper {
  public:
    explicit Keeper(const Keeping& k);
    // Starts the guardian of the owner's group; an error: nothing could guard it.
    Result<void> guard();
    [[noreturn]] void run();

  private:
    void on_time(Clock::time_point now);
    void stop(Clock::time_point now);
    void kill_group();
    void record_max_run();
    // After a stop: the group killed or gone, the leases released (the loss recorded).
    void end_stop();
    // Releases every lease; the exit status and message for `dlock release`.
    std::pair<int, std::string> release(std::optional<int> exit_status);
    void on_request();
    void on_owner_exit();
    // A stop signal sent to the keeper goes to the owner, as `dlock run` forwards one to its
    // command: the lock is the owner's, so it is held until the owner exits or releases it.
    void forward_signal();
    [[noreturn]] void quit();

    const Keeping& k_;
    process::StopRule::Policy policy_;
    process::StopRule rule_;
    std::optional<process::Guardian> guardian_;
    bool released_ = false;
    bool owner_gone_ = false;
    std::string lost_message_; // why the owner was stopped: the answer to a release after it
    int stop_status_ = exit_code::lease_lost; // that release's status: 76, or 124 (--max-run)
    int wake_fd_;
    int signal_fd_;
    // Kept open to be given up when the descriptors run out (EMFILE): a connection that cannot
    // be accepted keeps the listener readable, and the loop would spin on it.
    int reserve_fd_ = -1;
};

Keeper::Keeper(const Keeping& k)
    : k_(k), policy_(stop_policy(k.options, k.leases)), rule_(policy_) {
    sigset_t stops;
    sigemptyset(&stops);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT})
        sigaddset(&stops, s);
    sigprocmask(SIG_BLOCK, &stops, nullptr); // before the watchdog thread: it inherits the mask
    signal(SIGPIPE, SIG_IGN);
    signal_fd_ = signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    k_.leases.on_change([fd = wake_fd_] {
        const uint64_t one = 1;
        (void)!write(fd, &one, sizeof one);
    });
}

Result<void> Keeper::guard() {
    TRY_ASSIGN(auto guardian, process::Guardian::start());
    guardian.group().store(k_.owner.group());
    guardian_.emplace(std::move(guardian));
    return {};
}

void Keeper::on_time(Clock::time_point now) {
    if (released_)
        return;
    if (owner_gone_ && rule_.stopping() && !k_.owner.group_alive()) {
        rule_.ended(); // nothing left to kill
        end_stop();    // and, the owner gone, exit
    }
    switch (rule_.at(now)) {
    case process::StopRule::Action::stop:
        stop(now);
        break;
    case process::StopRule::Action::kill:
        kill_group();
        end_stop();
        break;
    case process::StopRule::Action::none:
        break;
    }
}

// The owner's group gets the stop signal now and SIGKILL after --kill-after. Nothing here
// waits: a renewal hung on a stalled Redis must not hold up the signal, which has to come
// before the lease can expire. After a loss the watchdog is only asked to stop; release()
// waits for it. After --max-run the leases are still ours, and renewed until the group is gone.
void Keeper::stop(Clock::time_point now) {
    std::string why;
    if (rule_.stopped()) {
        const lock::HeldLease* lost = k_.leases.lost(now);
        const std::string_view name = lost ? lost->name() : k_.leases[0].name();
        why = fmt::format("lost the lease on {} while it was held: {}", name, loss_cause(lost));
        stop_status_ = exit_code::lease_lost;
        k_.leases.request_stop_renewals();
    } else {
        why = fmt::format("{} held the lock longer than --max-run {}", k_.options.command_line,
                          format_duration(*k_.options.max_run));
        stop_status_ = exit_code::timed_out;
    }
    k_.owner.signal_group(k_.options.lost_signal);
    if (k_.options.lost_signal != SIGCONT)
        k_.owner.signal_group(SIGCONT); // stopped processes must be able to act on the signal
    lost_message_ = fmt::format("{}; its process group {} was sent SIG{}", why, k_.owner.group(),
                                signal_name(k_.options.lost_signal));
    log::error("{}", lost_message_);
}

void Keeper::kill_group() {
    if (!k_.owner.group_alive())
        return;
    log::warn("process group {} still runs {} after SIG{}: SIGKILL", k_.owner.group(),
              format_duration(k_.options.kill_after), signal_name(k_.options.lost_signal));
    k_.owner.signal_group(SIGKILL);
}

void Keeper::record_max_run() {
    if (lock::History* history = k_.backend.history())
        for (size_t i = 0; i < k_.leases.size(); ++i)
            record_time_up(*history, k_.leases[i].keys(), k_.self, k_.leases[i].shared(),
                           k_.leases[i].fence(), *k_.options.max_run);
}

void Keeper::end_stop() {
    if (rule_.timed_out())
        record_max_run();
    release(stop_status_);
    released_ = true;
    if (owner_gone_)
        quit();
}

std::pair<int, std::string> Keeper::release(std::optional<int> exit_status) {
    k_.leases.stop_renewals();
    std::vector<std::string> gone, names;
    std::optional<Error> failed;
    lock::LeaseSet::Ending ending;
    ending.after_loss = rule_.stopping();
    ending.exit_status = exit_status;
    ending.outcome = counted_outcome(rule_.stopped(), rule_.timed_out(), exit_status);
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
    for (size_t i = 0; i < k_.leases.size(); ++i) {
        const std::string& name = k_.leases[i].name();
        const bool inner =
            std::find(k_.reentered.begin(), k_.reentered.end(), name) != k_.reentered.end();
        names.push_back(
            inner ? fmt::format("{} (an inner hold: the script's outer hold keeps it)", name)
                  : name);
    }
    k_.leases.release_all(k_.backend, ending);
    if (k_.ephemeral)
        forget_if_free(*k_.ephemeral, k_.prefix, k_.options.names);
    if (!gone.empty() && rule_.stopping() && stop_status_ != exit_code::lease_lost) {
        // --max-run stopped the owner, and a lease was lost meanwhile: lost wins, as in run.
        stop_status_ = exit_code::lease_lost;
        lost_message_ += fmt::format("; the lease on {} was lost meanwhile", joined(gone));
    }
    if (!gone.empty() && !rule_.stopping())
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
    if (request.owner_query && request.allowed) {
        process::answer_hold_request(request, exit_code::ok,
                                     fmt::format("{} {}", k_.owner.pid(), k_.script));
        return;
    }
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
    if (!rule_.stopping()) {
        const auto [status, message] = release(request.status.value_or(exit_code::ok));
        log::info("{}", message);
        process::answer_hold_request(request, status, message);
        quit();
    }
    // Stopped already: the answer says why, and the group still gets its SIGKILL when due.
    process::answer_hold_request(request, stop_status_, lost_message_);
    if (released_)
        quit();
}

void Keeper::on_owner_exit() {
    owner_gone_ = true;
    if (!rule_.stopping()) {
        const auto [status, message] = release(std::nullopt);
        log::info("process {} exited: {}", k_.owner.pid(), message);
        quit();
    }
    if (released_)
        quit();
    // Stopping: the rest of its group still gets SIGKILL when due, unless it is gone first
    // (on_time looks).
}

void Keeper::forward_signal() {
    signalfd_siginfo info{};
    while (read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
        const int sig = static_cast<int>(info.ssi_signo);
        log::info("the keeper got SIG{}: sent to process {}", signal_name(sig), k_.owner.pid());
        k_.owner.signal(sig);
    }
}

// The group needs no guard any more (it ended, was killed, or is let go with the lock): the
// guardian is disarmed and reaped before the keeper ends.
void Keeper::quit() {
    if (guardian_) {
        guardian_->disarm();
        guardian_.reset();
    }
    _exit(0);
}

void Keeper::run() {
    // Opened last, once the set-up's own descriptors are closed: as the lowest free descriptor,
    // closing it makes room for one more under the limit.
    reserve_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
    for (;;) {
        on_time(Clock::now());
        // Once the owner has gone, its pidfd stays readable: it leaves the set (-1 is ignored).
        std::array<pollfd, 4> fds{{{owner_gone_ ? -1 : k_.owner.fd(), POLLIN, 0},
                                   {k_.listener, POLLIN, 0},
                                   {signal_fd_, POLLIN, 0},
                                   {wake_fd_, POLLIN, 0}}};
        auto next = released_ ? Clock::time_point::max() : rule_.next();
        if (owner_gone_ && !released_) // members of a group send no wake-up when they exit
            next = std::min(next, Clock::now() + kGroupPoll);
        if (poll(fds.data(), fds.size(), poll_timeout(Clock::now(), next)) < 0)
            continue; // EINTR
        if (fds[3].revents != 0) {
            uint64_t count;
            (void)!read(wake_fd_, &count, sizeof count);
        }
        if (fds[2].revents != 0)
            forward_signal();
        if (fds[0].revents != 0)
            on_owner_exit();
        if (fds[1].revents != 0)
            on_request();
    }
}

// Tells the waiting `dlock acquire` whether the keeper holds and guards: "ok", or why not.
void announce(int ready, std::string_view what) {
    const std::string line = std::string(what) + "\n";
    (void)!write(ready, line.data(), line.size());
    close(ready);
}

} // namespace

void keep(const Keeping& keeping, int ready) {
    Keeper keeper(keeping);
    if (auto guarded = keeper.guard(); !guarded) {
        keeping.leases.release_all(keeping.backend);
        announce(ready, guarded.error().message);
        _exit(0);
    }
    announce(ready, "ok");
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
