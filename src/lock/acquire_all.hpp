#pragma once

#include "lock/acquire.hpp"
#include "lock/lease_set.hpp"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dlock::lock {

// One lease to take: LeaseId::owner and hold_id must match `request`.
struct LeaseRequest {
    LeaseId id;
    AcquireRequest request;
};

struct AllHeld {};

// `name` was not obtained: held elsewhere, or the wait ran out. Nothing is held any more.
struct Blocked {
    std::string name;
    Refused refused;
};

// The lease on `name`, taken earlier, was lost before the other names were all held (it could
// not be renewed, or it was deleted or taken over). Nothing is held any more.
struct LostMeanwhile {
    std::string name;
};

// `interrupted` said so (e.g. a signal arrived) while waiting. Nothing is held any more.
struct Interrupted {};

using AcquireAllResult = Result<std::variant<AllHeld, Blocked, LostMeanwhile, Interrupted>>;

// Told before every block of a wait for `name`, with what was last seen (AcquireSpec::on_wait).
using WaitHook = std::function<void(const std::string& name, const AcquireOutcome& last)>;

// Takes every lease or none. Names live in different Cluster slots, so no script can take them
// together; they are taken one at a time, always in byte order of their names whatever order
// `requests` lists them in, so two callers listing the same names in different orders cannot
// deadlock. Each lease taken is added to `leases`, and is renewed while a later one is awaited
// (that wait may outlast the TTL). `wait` is absolute across all names. On a refusal, a timeout,
// a lease lost meanwhile, an error, or when `interrupted` (checked before every block, so at
// least once per waiter heartbeat slice) returns true, every lease taken so far is released and
// the queue left. The names must be distinct. `on_wait`, if given, is told of every wait.
AcquireAllResult acquire_all(Backend& backend, std::vector<LeaseRequest> requests,
                             std::optional<Millis> wait, LeaseSet& leases,
                             const std::function<bool()>& interrupted = nullptr,
                             const WaitHook& on_wait = nullptr);

} // namespace dlock::lock
