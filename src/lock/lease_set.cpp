#include "lock/lease_set.hpp"

#include "util/log.hpp"

#include <algorithm>

namespace dlock::lock {
namespace {

constexpr int kReleaseAttempts = 3;

} // namespace

LeaseSet::LeaseSet(BackendFactory open_backend, Millis ttl, Millis grace, Millis heartbeat)
    : open_backend_(std::move(open_backend)), ttl_(ttl), grace_(grace), heartbeat_(heartbeat) {}

LeaseSet::~LeaseSet() {
    stop_renewals();
}

HeldLease& LeaseSet::add(LeaseId id, const Acquired& acquired) {
    leases_.push_back(std::make_unique<HeldLease>(std::move(id), acquired, ttl_, grace_));
    return *leases_.back();
}

const HeldLease* LeaseSet::find(std::string_view name) const {
    for (const auto& lease : leases_)
        if (lease->name() == name)
            return lease.get();
    return nullptr;
}

void LeaseSet::start_renewals() {
    for (auto& lease : leases_)
        lease->start_renewing(open_backend_, [this] { changed(); });
}

LeaseSet::Clock::time_point LeaseSet::renewals_due() const {
    auto due = Clock::time_point::max();
    for (const auto& lease : leases_)
        if (!lease->renewing())
            due = std::min(due, lease->first_renewal());
    return due;
}

LeaseSet::Clock::time_point LeaseSet::stop_at() const {
    auto at = Clock::time_point::max();
    for (const auto& lease : leases_)
        at = std::min(at, lease->clock().stop_at());
    return at;
}

const HeldLease* LeaseSet::lost(Clock::time_point now) const {
    const HeldLease* first = nullptr;
    for (const auto& lease : leases_) {
        if (lease->clock().confirmed_lost())
            return lease.get();
        if (lease->clock().expired(now) &&
            (!first || lease->clock().stop_at() < first->clock().stop_at()))
            first = lease.get();
    }
    return first;
}

void LeaseSet::on_change(std::function<void()> listener) {
    std::lock_guard lock(listener_mutex_);
    listener_ = std::move(listener);
}

void LeaseSet::changed() {
    std::lock_guard lock(listener_mutex_);
    if (listener_)
        listener_();
}

void LeaseSet::stop_renewals() {
    for (auto& lease : leases_)
        lease->stop_renewing();
}

void LeaseSet::release_all(Backend& backend) {
    release_all(backend, Ending{});
}

void LeaseSet::release_all(Backend& backend, const Ending& ending) {
    stop_renewals();
    for (auto it = leases_.rbegin(); it != leases_.rend(); ++it) {
        HeldLease& lease = **it;
        Result<std::optional<int64_t>> released = fail(exit_code::internal, "not tried");
        for (int attempt = 0; attempt < kReleaseAttempts; ++attempt) {
            released = lease.release(backend, heartbeat_, ending.exit_status, ending.min_hold);
            if (released || !released.error().transient)
                break;
        }
        if (released && !*released && ending.on_gone)
            ending.on_gone(lease);
        if (!released && ending.on_unreleased)
            ending.on_unreleased(lease);
        if (!released)
            log::warn("could not release {}: {}; it expires by itself within {}", lease.name(),
                      released.error().message, format_duration(ttl_));
        else if (!*released && !ending.after_loss)
            log::warn("the lease on {} had already expired when it was released", lease.name());
        else if (*released)
            log::info("released {} ({} hold{} left)", lease.name(), **released,
                      **released == 1 ? "" : "s");
    }
    leases_.clear();
}

} // namespace dlock::lock
