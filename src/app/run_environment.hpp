#pragma once

#include "app/run.hpp"
#include "lock/acquire_all.hpp"
#include "lock/ownership.hpp"

#include <string>
#include <vector>

namespace dlock::app {

// The owner tokens of one `dlock run`: a name an enclosing dlock holds is re-entered with its
// token (see lock/ownership.hpp); all other names share one fresh token.
struct RunOwners {
    lock::InheritedHolds inherited;
    std::vector<std::string> of_name; // one per name, in RunOptions::names order
    std::string run_owner;            // DLOCK_OWNER: the fresh token, else the first name's

    // `reenter` false: every name gets the fresh token (semaphore permits are not re-entered).
    static RunOwners resolve(const std::vector<std::string>& names, bool reenter = true);
};

// One request per name, with this process's holder information `self`.
std::vector<lock::LeaseRequest> lease_requests(const Target& target, const RunOptions& options,
                                               const RunOwners& owners,
                                               const lock::HolderInfo& self);

// Sets what the command gets: DLOCK_NAME, DLOCK_OWNER, DLOCK_FENCING_TOKEN(S), DLOCK_TTL_MS and
// DLOCK_HELD (see docs/reference.md, "What the command gets").
void export_leases(const RunOptions& options, const RunOwners& owners,
                   const lock::LeaseSet& leases);

} // namespace dlock::app
