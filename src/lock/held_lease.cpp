#include "lock/held_lease.hpp"

namespace dlock::lock {

HeldLease::HeldLease(LeaseId id, const Acquired& acquired, Millis ttl, Millis grace)
    : id_(std::move(id)), acquired_(acquired), ttl_(ttl), clock_(acquired.sent_at, ttl, grace) {}

void HeldLease::start_renewing(Watchdog& watchdog) {
    if (renewing_)
        return;
    watchdog.add(
        RenewRequest{id_.keys, id_.owner, id_.hold_id, ttl_, acquired_.shared, acquired_.fence},
        clock_, id_.name);
    renewing_ = true;
}

Millis HeldLease::held_for() const {
    return std::chrono::duration_cast<Millis>(Clock::now() - acquired_.sent_at);
}

Result<std::optional<int64_t>> HeldLease::release(Backend& backend, Millis heartbeat,
                                                  std::optional<int> exit_status, Millis min_hold,
                                                  std::optional<Outcome> outcome) {
    ReleaseRequest request{id_.owner, id_.hold_id, heartbeat, acquired_.shared, exit_status};
    request.outcome = outcome;
    request.min_hold = min_hold;
    request.fence = acquired_.fence;
    return backend.release(id_.keys, request);
}

} // namespace dlock::lock
