#pragma once

#include "app/run.hpp"
#include "lock/acquire_all.hpp"

namespace dlock::app {

// The one line on stderr for each way `dlock run` can end without running the command to
// completion. The refusals return the conflict exit status (-E).
int report_refusal(const RunOptions& options, const lock::Blocked& blocked);
int report_lost_meanwhile(const RunOptions& options, const lock::LostMeanwhile& lost);
void report_lease_lost(const lock::HeldLease& lease);

} // namespace dlock::app
