#include "app/status_watch.hpp"

#include "util/signal_latch.hpp"
#include "util/terminal_frame.hpp"
#include "util/write_fully.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <poll.h>
#include <unistd.h>

namespace dlock::app {
namespace {

// The signals that end the watch or redraw it are blocked but while it sleeps, so that one
// arriving between a look at the flags and the sleep still cuts the sleep short (and none
// interrupts a read from Redis half way: it is seen when the read is done).
class BlockedSignals {
  public:
    BlockedSignals() {
        sigset_t set;
        sigemptyset(&set);
        for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT})
            sigaddset(&set, signo);
        pthread_sigmask(SIG_BLOCK, &set, &original_);
    }
    ~BlockedSignals() { pthread_sigmask(SIG_SETMASK, &original_, nullptr); }
    BlockedSignals(const BlockedSignals&) = delete;
    BlockedSignals& operator=(const BlockedSignals&) = delete;

    // Sleeps `interval`, or until one of the signals is handled.
    void sleep(Millis interval) const {
        const auto ms = interval.count();
        const timespec period{static_cast<time_t>(ms / 1000),
                              static_cast<long>(ms % 1000) * 1000000};
        (void)ppoll(nullptr, 0, &period, &original_);
    }

  private:
    sigset_t original_{};
};

// What one read gives the watch: the state of the names asked for, or of every name in use or
// that ran (a finished job's lock is free, but its last run is worth showing).
Result<StatusAnswer> read_once(lock::Store& store, const Target& target,
                               const std::vector<std::string>& asked) {
    StatusOptions options;
    options.names = asked;
    if (options.names.empty()) {
        TRY_ASSIGN(options.names, store.names(target.prefix, lock::NameScope::known));
    }
    return status(store, target, options);
}

class Watch {
  public:
    Watch(lock::Store& store, const Target& target, const WatchOptions& options,
          const WatchView& view, StatusAnswer first)
        : store_(store), target_(target), options_(options), view_(view), good_(std::move(first)) {}

    // Draws a frame; false when the terminal took no more.
    bool draw(bool clear) const {
        const WatchState state{&good_, failure_ ? &*failure_ : nullptr, failed_at_ms_};
        const TerminalSize size = terminal_size(STDOUT_FILENO).value_or(TerminalSize{});
        return write_fully(STDOUT_FILENO, compose_frame(view_(state), size, clear)) == 0;
    }

    void read() {
        auto answer = read_once(store_, target_, options_.names);
        if (answer) {
            good_ = std::move(*answer);
            failure_.reset();
        } else {
            failure_ = std::move(answer.error());
            failed_at_ms_ = wall_now_ms();
        }
    }

  private:
    lock::Store& store_;
    const Target& target_;
    const WatchOptions& options_;
    const WatchView& view_;
    StatusAnswer good_;
    std::optional<Error> failure_;
    int64_t failed_at_ms_ = 0;
};

} // namespace

Result<int> watch_status(lock::Store& store, const Target& target, const WatchOptions& options,
                         const WatchView& view) {
    SignalLatch quit({SIGINT, SIGTERM, SIGHUP});
    RedrawSignals redraw;
    const BlockedSignals blocked;
    TRY_ASSIGN(auto first, read_once(store, target, options.names));
    Watch watch(store, target, options, view, std::move(first));
    bool clear = true;
    bool written = true;
    while (quit.caught() == 0) {
        written = watch.draw(clear);
        if (!written)
            break;
        blocked.sleep(options.interval);
        if (quit.caught() != 0)
            break;
        clear = redraw.take();
        watch.read();
    }
    const int errno_of_write = errno;
    // The cursor on a fresh line below the frame (unless the terminal is gone).
    if (written)
        (void)write_fully(STDOUT_FILENO, kAfterLastFrame);
    if (quit.caught() == SIGINT)
        return exit_code::ok;
    if (quit.caught() != 0)
        return quit.reraise();
    return fail(Fault::internal,
                std::string("cannot write to stdout: ") + std::strerror(errno_of_write));
}

} // namespace dlock::app
