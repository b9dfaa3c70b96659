#include "lock/acquire_all.hpp"

#include "util/log.hpp"

#include <algorithm>

namespace dlock::lock {
namespace {

using Clock = std::chrono::steady_clock;

// What is left of the caller's wait for the next name.
std::optional<Millis> remaining(std::optional<Millis> wait, Clock::time_point deadline) {
    if (!wait || *wait == Millis(0))
        return wait;
    return std::max(Millis(0), std::chrono::duration_cast<Millis>(deadline - Clock::now()));
}

void take(LeaseSet& leases, LeaseId id, const Acquired& acquired) {
    if (acquired.permit_limit > 0)
        log::info("acquired a permit of {} (permit {}, {} of {} held, token {})", id.name,
                  id.hold_id, acquired.permits_held, acquired.permit_limit, acquired.fence);
    else
        log::info("acquired {}{} (token {}, {} hold{})", id.name, acquired.shared ? " shared" : "",
                  acquired.fence, acquired.holds, acquired.holds == 1 ? "" : "s");
    leases.add(std::move(id), acquired);
}

} // namespace

AcquireAllResult acquire_all(Backend& backend, std::vector<LeaseRequest> requests,
                             std::optional<Millis> wait, LeaseSet& leases,
                             const std::function<bool()>& interrupted, const WaitHook& on_wait) {
    std::sort(requests.begin(), requests.end(),
              [](const LeaseRequest& a, const LeaseRequest& b) { return a.id.name < b.id.name; });
    const auto deadline = wait ? Clock::now() + *wait : Clock::time_point::max();

    for (size_t i = 0; i < requests.size(); ++i) {
        LeaseRequest& next = requests[i];
        AcquireSpec spec{next.id.keys, next.request, remaining(wait, deadline)};
        const HeldLease* lost = nullptr; // sticky: a late renewal must not hide the loss
        if (interrupted || !leases.empty())
            spec.abandon = [&] {
                return (interrupted && interrupted()) || (lost = leases.lost()) != nullptr;
            };
        if (on_wait)
            spec.on_wait = [&](const AcquireOutcome& last) { on_wait(next.id.name, last); };
        auto result = acquire(backend, std::move(spec));
        if (result && std::holds_alternative<Acquired>(*result))
            take(leases, std::move(next.id), std::get<Acquired>(*result));

        if (interrupted && interrupted()) {
            leases.release_all(backend);
            return Interrupted{};
        }

        if (!result) {
            leases.release_all(backend);
            Error error = result.error();
            // Refusals that are usage errors: an exclusive request by a shared holder, or
            // another limit than a semaphore's holders use.
            if (error.fault == Fault::bad_input)
                error.message = fmt::format("cannot take {}: {}", next.id.name, error.message);
            return tl::unexpected(error);
        }
        if (lost || (lost = leases.lost())) {
            LostMeanwhile outcome{lost->name()};
            LeaseSet::Ending ending;
            ending.after_loss = true;
            leases.release_all(backend, ending);
            return outcome;
        }
        if (std::holds_alternative<Refused>(*result)) {
            leases.release_all(backend);
            Refused refused = std::get<Refused>(*result);
            // Also when the wait ran out on an earlier name; a pause ends a wait, not times it out.
            refused.timed_out = wait != Millis(0) && !refused.last.paused;
            return Blocked{next.id.name, refused};
        }
        // Waiting for a later name may take longer than the TTL.
        if (i + 1 < requests.size())
            leases.start_renewals();
    }
    return AllHeld{};
}

} // namespace dlock::lock
