#include "lock/watchdog.hpp"

#include "util/log.hpp"

#include <csignal>

namespace dlock::lock {
namespace {

using Clock = LeaseClock::Clock;

Millis retry_pause(Millis ttl) {
    return std::clamp(ttl / 20, Millis(50), Millis(500));
}

} // namespace

Watchdog::Watchdog(BackendFactory open_backend, Keys keys, std::string owner, Millis ttl,
                   LeaseClock& clock, std::function<void()> on_change,
                   std::optional<std::string> shared_hold)
    : open_backend_(std::move(open_backend)), keys_(std::move(keys)), owner_(std::move(owner)),
      ttl_(ttl), clock_(clock), on_change_(std::move(on_change)),
      shared_hold_(std::move(shared_hold)) {}

Watchdog::~Watchdog() {
    stop();
}

void Watchdog::start() {
    // The renewal thread never takes a process signal: the supervisor reads them from a
    // signalfd, which sees them only while every thread blocks them. A watchdog may start
    // before the supervisor blocks them (a multi-name run renews while it waits).
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    thread_ = std::thread([this] { loop(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void Watchdog::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wakeup_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

bool Watchdog::sleep_until(Clock::time_point when) {
    std::unique_lock lock(mutex_);
    return !wakeup_.wait_until(lock, when, [this] { return stopping_; });
}

void Watchdog::loop() {
    std::unique_ptr<Backend> backend;
    auto next = clock_.guaranteed_until() - ttl_ + ttl_ / 3;
    while (sleep_until(next)) {
        if (clock_.expired()) {
            // Too late to matter: the supervisor is already stopping the command.
            return;
        }
        if (!backend) {
            auto opened = open_backend_();
            if (!opened) {
                log::warn("cannot renew lease: {}", opened.error().message);
                next = Clock::now() + retry_pause(ttl_);
                continue;
            }
            backend = std::move(*opened);
        }
        auto sent_at = Clock::now();
        auto renewed = shared_hold_ ? backend->renew_shared(keys_, owner_, *shared_hold_, ttl_)
                                    : backend->renew(keys_, owner_, ttl_);
        if (!renewed) {
            log::warn("cannot renew lease: {}", renewed.error().message);
            if (renewed.error().transient)
                backend.reset(); // reconnect on the next try
            next = Clock::now() + retry_pause(ttl_);
            continue;
        }
        if (!*renewed) {
            clock_.lost();
            on_change_();
            return;
        }
        clock_.renewed(sent_at);
        log::debug("lease renewed");
        next = sent_at + ttl_ / 3;
    }
}

} // namespace dlock::lock
