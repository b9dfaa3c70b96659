#pragma once

#include "lock/backend.hpp"
#include "lock/history.hpp"

#include <string>

namespace dlock::app {

// The history events of `dlock run` that no script sees (acquisitions, releases and no-wait
// refusals are recorded by the scripts themselves). Both are best effort and off the hot
// path: a failure is logged at -v and changes nothing else.

// The lease was found lost (not ours) at release; `exit_status` is what dlock returns.
void record_lost_lease(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                       bool shared, int64_t fence, Millis held_for, int exit_status);

// The command ran past --max-run (`max_run`) and was stopped.
void record_time_up(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                    bool shared, int64_t fence, Millis max_run);

// A --wait ran out; `holder` is the holder as last seen (if the lock was held).
void record_timed_out_wait(lock::History& history, const lock::Keys& keys,
                           const lock::HolderInfo& self, bool shared,
                           const lock::AcquireOutcome& last, Millis waited);

// A run refused because its name is paused, when the store did not record it (a quorum).
void record_paused_skip(lock::History& history, const lock::Keys& keys,
                        const lock::HolderInfo& self, bool shared, const lock::Pause& pause);

// `run --once-per` did not run its command: `reason` says which run did the slot already.
void record_slot_skip(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                      const std::string& reason, int64_t slot);

} // namespace dlock::app
