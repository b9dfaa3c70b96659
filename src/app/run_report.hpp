#pragma once

#include "app/run.hpp"
#include "lock/acquire_all.hpp"

namespace dlock::app {

// Why a name could not be taken: "held by ...", "held shared by ..." or "free, but ...".
std::string why_refused(const lock::AcquireOutcome& last);

// The one line on stderr for each way `dlock run` can end without running the command to
// completion. The refusals return the conflict exit status (-E).
int report_refusal(const RunOptions& options, const lock::Blocked& blocked);
int report_lost_meanwhile(const RunOptions& options, const lock::LostMeanwhile& lost);
// The command was stopped because `lease` was lost; `paused`: its guarantee had already run out
// when dlock could act (dlock was stopped or frozen past its lease).
void report_lease_lost(const lock::HeldLease& lease, bool paused);
// The command ran past --max-run and was stopped; `killed`: SIGKILL was needed for it or for
// what it left.
void report_time_up(const RunOptions& options, bool killed);
// The command ran to its end, but the release found lease `name` no longer ours.
void report_lost_while_running(const std::string& name, bool paused);
// The error (exit 70) when Redis answered the release of lease `name` with an error or an
// unexpected reply after the command ran: nobody can say the lease was ours to the end.
Error release_failed(const std::string& name, const Error& error);
// The command ran to its end after lease `name`'s guarantee ran out, and Redis could not
// confirm at release that it was still ours.
void report_unconfirmed_release(const std::string& name);

} // namespace dlock::app
