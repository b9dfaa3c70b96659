#pragma once

#include "app/run.hpp"
#include "app/run_environment.hpp"
#include "lock/backend.hpp"
#include "lock/lease_set.hpp"
#include "lock/store.hpp"

#include <functional>
#include <optional>

namespace dlock::app {

// What the store must offer for `options` (semaphores, -s, --min-hold, --once-per), checked
// before anything is written to it: a refusal is the same usage error on every store.
Result<void> check_offered(const lock::Store& store, const RunOptions& options);

// Takes the lease on every name of `options` into `leases`, all or none, as `dlock run` and
// `dlock acquire` do: waiting as -w says (shown at a terminal or at -v), recording a --wait that
// ran out. nullopt: every lease is held; else the exit status of the refusal, already reported,
// with nothing held. A signal caught while several names are taken, while a wait is shown in
// place, or during any wait when `catch_signals`, gives back what was taken, calls
// `before_dying` with it and ends dlock with that signal. With `slots` (--once-per), a refusal by
// a lock kept by --min-hold after the run of the slot of now is "done" (done_while_kept).
Result<std::optional<int>> take_leases(lock::Backend& backend, lock::LeaseSet& leases,
                                       const Target& target, const RunOptions& options,
                                       const RunOwners& owners, const lock::HolderInfo& self,
                                       const std::function<void(int)>& before_dying = nullptr,
                                       bool catch_signals = false, lock::Slots* slots = nullptr);

} // namespace dlock::app
