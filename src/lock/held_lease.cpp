#include "lock/held_lease.hpp"

namespace dlock::lock {

HeldLease::HeldLease(LeaseId id, const Acquired& acquired, Millis ttl, Millis grace)
    : id_(std::move(id)), acquired_(acquired), ttl_(ttl), clock_(acquired.sent_at, ttl, grace) {}

void HeldLease::start_renewing(const BackendFactory& open_backend,
                               std::function<void()> on_change) {
    if (watchdog_)
        return;
    watchdog_ = std::make_unique<Watchdog>(
        open_backend, id_.keys, id_.owner, ttl_, clock_, std::move(on_change),
        acquired_.shared ? std::optional<std::string>(id_.hold_id) : std::nullopt);
    watchdog_->start();
}

void HeldLease::stop_renewing() {
    if (watchdog_)
        watchdog_->stop();
}

Millis HeldLease::held_for() const {
    return std::chrono::duration_cast<Millis>(Clock::now() - acquired_.sent_at);
}

Result<std::optional<int64_t>> HeldLease::release(Backend& backend, Millis heartbeat,
                                                  std::optional<int> exit_status, Millis min_hold) {
    return backend.release(id_.keys, ReleaseRequest{id_.owner, id_.hold_id, heartbeat,
                                                    acquired_.shared, exit_status, min_hold});
}

} // namespace dlock::lock
