#pragma once

#include "app/hold_output.hpp"
#include "app/run.hpp"

#include <optional>
#include <string>
#include <sys/types.h>

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

// `dlock release` without --force: asks the keeper of `hold` to release. Returns its status,
// reported on stderr; 76 when no keeper answers for it (see docs/reference.md).
Result<int> release_hold(const std::string& hold, bool inherited);

} // namespace dlock::app
