#pragma once

#include "app/run.hpp"
#include "lock/lease_set.hpp"
#include "lock/runs.hpp"
#include "process/stop_rule.hpp"

#include <optional>

namespace dlock::app {

// The stop rule of a job that works under `leases` (`dlock run`'s command, `dlock acquire`'s
// script), from its options: the lost signal before the leases' stop deadline, SIGKILL after
// --kill-after, --max-run from now, and the renewals started when the first is due.
process::StopRule::Policy stop_policy(const RunOptions& options, lock::LeaseSet& leases);

// How a job's end is counted by the run counters: `lost` when it was stopped for a lost lease, else
// `timed_out` when --max-run did, else by its exit status (`unknown` when it is not known: a script
// that exited without `dlock release --status`).
lock::Outcome counted_outcome(bool stopped, bool timed_out, std::optional<int> exit_status);

} // namespace dlock::app
