#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::app {

// `dlock forget NAME...`: for each free NAME, removes its history, run counters, fencing counter
// and once-per slot in one script, so it leaves `dlock metrics`, `status --watch` and `check`.
// A held NAME is refused with one line on stderr and left as it is (the others are forgotten).
// 0 when no NAME was held, exit_code::nothing when one was. `names` are valid and distinct.
// Under a quorum, each member decides on its own.
Result<int> forget(lock::Store& store, const Target& target, const std::vector<std::string>& names);

// The end of an --ephemeral run or hold: forgets each of `names` that is free now, quietly (a
// name another run holds keeps its records until that run ends; a failure is logged at -v, and
// what was left expires by itself).
void forget_if_free(lock::Store& store, const std::string& prefix,
                    const std::vector<std::string>& names);

} // namespace dlock::app
