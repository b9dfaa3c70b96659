#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock::lock {

struct StatusReading;

// What became of the runs of a name, counted by the same scripts that write its history
// (lua/lib/runs.lua, key "<prefix>:{NAME}:runs"). The counters only grow: they outlive the
// history's trimming, and vanish only with the key, a year after its last write.

// How a run ended, or why one did not start.
enum class Outcome {
    ok,                // the command exited 0 with the lease held throughout
    failed,            // it exited non-zero or was killed by a signal
    timed_out,         // --max-run stopped it
    lost,              // the lease was lost while it ran (76)
    skipped_busy,      // another holder had the lock (a no-wait refusal or a --wait that ran out)
    skipped_slot_done, // --once-per: its slot was done already
    skipped_paused,    // the name was paused (`dlock pause`)
    unknown,           // the hold of `dlock acquire` ended with its script, whose status is unknown
};
inline constexpr std::array<Outcome, 8> kOutcomes{Outcome::ok,
                                                  Outcome::failed,
                                                  Outcome::timed_out,
                                                  Outcome::lost,
                                                  Outcome::skipped_busy,
                                                  Outcome::skipped_slot_done,
                                                  Outcome::skipped_paused,
                                                  Outcome::unknown};

// The outcome's name: the field of its counter, and the `outcome` label of dlock_runs_total.
std::string_view outcome_name(Outcome outcome);
// The outcome named `name`; nullopt for any other text.
std::optional<Outcome> outcome_named(std::string_view name);

// One finished run (a lock's release with an exit status, or a lost lease).
struct RunRecord {
    Outcome outcome = Outcome::ok; // ok, failed, timed_out, lost or unknown
    int64_t end_ms = 0;            // server time the run ended
    int64_t duration_ms = 0;       // from the acquisition to its end
    int exit_status = 0;           // what dlock returned for it; -1: not known
    std::string host;              // where it ran
};

struct RunStats {
    std::array<int64_t, kOutcomes.size()> counts{}; // indexed by Outcome
    std::optional<RunRecord> last_run;              // the newest finished run, any outcome
    std::optional<RunRecord> last_success;          // the newest with outcome ok

    int64_t count(Outcome outcome) const { return counts[static_cast<size_t>(outcome)]; }
    // The newest run that says the job ran: the last success, or a later run whose exit status
    // is unknown (a `dlock acquire` hold that ended with its script), not known to have failed.
    const std::optional<RunRecord>& last_ran() const;
    // No counter and no record: the name never ran (or its key expired).
    bool empty() const;
};

// The runs of `name` in `reading`: one deployment's record as it is; under a quorum, merged from
// the members that answered, when a majority did (nullopt otherwise, or when no report has the
// name). A run is counted only on the members that held it, and different runs may be held by
// different majorities, so no member alone (and no quorum-th value) has them all: each counter
// is the largest, and the last run and success the newest, that an answering member recorded.
// Every run so recorded held a majority, so none is made up; a counter may still miss runs held
// by different majorities.
std::optional<RunStats> runs_of(const StatusReading& reading, std::string_view name);

} // namespace dlock::lock
