#include "lock/lease_set.hpp"

#include "lock/backoff.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <thread>

namespace dlock::lock {
namespace {

// How long release_all retries connection errors, for all leases together, when Redis cannot
// be connected to: not to hold up the exit for long when Redis is gone (the leases then expire
// after their TTL). While it can be connected to (connections reset again and again), a release
// is retried for as long as its lease may still exist: giving up would leave the name held.
constexpr Millis kReleaseRetries{3000};

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
    if (!watchdog_)
        watchdog_ = std::make_unique<Watchdog>(open_backend_, ttl_, [this] { changed(); });
    for (auto& lease : leases_)
        lease->start_renewing(*watchdog_);
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
    if (watchdog_)
        watchdog_->stop();
}

void LeaseSet::request_stop_renewals() {
    if (watchdog_)
        watchdog_->request_stop();
}

void LeaseSet::pause_renewals() {
    if (!watchdog_)
        return;
    watchdog_->stop();
    watchdog_.reset();
    for (auto& lease : leases_)
        lease->stop_renewing();
}

void LeaseSet::release_all(Backend& backend) {
    release_all(backend, Ending{});
}

void LeaseSet::release_all(Backend& backend, const Ending& ending) {
    stop_renewals();
    const auto retry_until = Clock::now() + kReleaseRetries;
    Backoff backoff;
    size_t skipped = 0;
    for (auto it = leases_.rbegin(); it != leases_.rend(); ++it) {
        HeldLease& lease = **it;
        if (skipped > 0) { // Redis stayed unreachable: each try could cost a command timeout
            ++skipped;
            continue;
        }
        auto released =
            lease.release(backend, heartbeat_, ending.exit_status, ending.min_hold, ending.outcome);
        const auto worth_it = std::max(retry_until, lease.clock().guaranteed_until());
        while (!released && released.error().transient &&
               Clock::now() < (released.error().unreachable ? retry_until : worth_it)) {
            log::debug("release {}: {}; retrying", lease.name(), released.error().message);
            std::this_thread::sleep_for(backoff.next());
            released = lease.release(backend, heartbeat_, ending.exit_status, ending.min_hold,
                                     ending.outcome);
        }
        if (!released && released.error().transient)
            skipped = 1; // this one; the others follow
        if (released && !*released && ending.on_gone)
            ending.on_gone(lease);
        if (!released && ending.on_unreleased)
            ending.on_unreleased(lease, released.error());
        if (!released) {
            if (released.error().transient || !ending.on_unreleased) // else on_unreleased says it
                log::warn("could not release {}: {}; it expires by itself within {}", lease.name(),
                          released.error().message, format_duration(ttl_));
        } else if (!*released && !ending.after_loss)
            log::warn("the lease on {} had already expired when it was released", lease.name());
        else if (*released)
            log::info("released {} ({} hold{} left)", lease.name(), **released,
                      **released == 1 ? "" : "s");
    }
    if (skipped > 1)
        log::warn("could not release {} more name{} either; they expire by themselves within {}",
                  skipped - 1, skipped == 2 ? "" : "s", format_duration(ttl_));
    leases_.clear();
    watchdog_.reset();
}

} // namespace dlock::lock
