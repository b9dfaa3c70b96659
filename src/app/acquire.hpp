#pragma once

#include "app/hold_output.hpp"
#include "app/run.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::app {

struct AcquireOptions {
    RunOptions run;             // without a command; command_line is set to the owner's
    std::optional<pid_t> owner; // --pid; nullopt: the process that started dlock
    HoldFormat format = HoldFormat::sh;
};

// `dlock acquire`: takes the leases as `dlock run` would, then leaves a keeper process
// (app/keeper.hpp) that renews them until the owner exits or `dlock release` asks, prints the
// hold (app/hold_output.hpp) and ends the process with status 0 (it never returns then: the
// keeper shares its Redis connections, which this process must leave untouched). Returns the
// refusal's status (reported), or an Error before or instead of the keeper; nothing is held
// then.
Result<int> acquire(lock::Store& store, const Target& target, AcquireOptions options);

// The hold ids of a $DLOCK_HOLD: words separated by spaces (each checked by the caller).
std::vector<std::string> listed_holds(const char* text);

// `dlock release` without --force: asks the keepers of `holds` to release (each hold id, oldest
// first). Given with --hold (`inherited` false): that one. From $DLOCK_HOLD: every hold kept
// for the script the release runs in (process/calling_script.hpp), newest first; holds of
// another process are left (64, with the keeper's reason, when all are). `status`: how the
// script ended (`--status`), for the run counters. Returns the first status that is not 0
// (each reported on stderr), or 0; 76 when no keeper answers for the hold (see
// docs/reference.md).
Result<int> release_holds(const std::vector<std::string>& holds, bool inherited,
                          std::optional<int> status);

} // namespace dlock::app
