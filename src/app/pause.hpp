#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::app {

struct PauseOptions {
    std::vector<std::string> names; // valid and distinct
    Millis duration{0};             // 0: until `dlock resume`
    std::string reason;             // one line, may be empty
};

// `dlock pause NAME...`: until the pause ends, no run or acquire of a NAME starts, whatever its
// --wait; its waiters now are told and exit; a holder runs on. One line per NAME on stdout.
// 0 when every NAME is paused. Under a quorum, a member that could not be paused gets a line
// on stderr; the pause holds once a majority has it (else exit_code::unavailable).
Result<int> pause(lock::Store& store, const Target& target, const PauseOptions& options);

// `dlock resume NAME...`: ends the pauses. 0 when every NAME was paused and is now resumed,
// exit_code::nothing when one was not paused; under a quorum, a member that kept its pause (it
// could not be reached) makes it exit_code::unavailable: runs stay refused until it ends.
Result<int> resume(lock::Store& store, const Target& target, const std::vector<std::string>& names);

} // namespace dlock::app
