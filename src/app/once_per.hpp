#pragma once

#include "app/run.hpp"
#include "lock/acquire_all.hpp"
#include "lock/backend.hpp"
#include "lock/lease_set.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace dlock::app {

// The slot a `run --once-per` claimed: marked done after a successful command (unless strict,
// where the claim marked it).
struct ClaimedSlot {
    int64_t slot = 0;
};

// Claims the schedule slot of the one name in `leases`, right after its acquisition and before
// the command starts. No `slots` (no --once-per): nothing to claim. The slot open: the claimed
// slot. Done already (or the lease found lost):
// the skip is reported (one line, as a refusal; a `skip` in the history), the lease released,
// and the exit status returned as an int. An Error (Redis failed): the lease is released.
using SlotDecision = std::variant<std::monostate, ClaimedSlot, int>;
Result<SlotDecision> claim_slot(lock::Slots* slots, lock::Backend& backend, lock::LeaseSet& leases,
                                const RunOptions& options, const lock::HolderInfo& self);

// After the command exited 0 while the lease was held: marks the claimed slot done. A failure
// is a warning (the command ran; the slot stays open for another run).
void mark_slot_done(lock::Slots& slots, const lock::LeaseSet& leases, const RunOptions& options,
                    const lock::HolderInfo& self, const ClaimedSlot& claimed);

// "02:00-03:00 UTC": slot `slot` of `rule`, its nominal bounds (without the tolerance).
std::string describe_slot(const lock::SlotRule& rule, int64_t slot);

// "done this slot (02:00-03:00 UTC) by web-2 at 02:00:03".
std::string slot_done_reason(const lock::SlotRule& rule, const lock::SlotAnswer& answer);

// A run refused by a lock kept by --min-hold after the run that did the slot of now: that slot is
// done, so the refusal is "done" (said like a skip, --slot-done-exit-code) rather than busy.
// nullopt for any other refusal, or when the slot cannot be read. (The acquire has counted the
// refusal as skipped_busy already.)
std::optional<int> done_while_kept(lock::Slots* slots, const std::string& prefix,
                                   const RunOptions& options, const lock::Blocked& blocked);

} // namespace dlock::app
