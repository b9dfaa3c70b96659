#pragma once

#include "app/target.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::app {

struct StatusOptions {
    std::vector<std::string> names; // empty: everything under the prefix
    bool json = false;
    bool names_only = false; // `--names`: just the names in use, one per line
};

// `dlock status`: 0 when at least one name is held (a lock holder, a semaphore permit, a lock
// kept by --min-hold) or is an existing latch; exit_code::nothing when none is.
Result<int> status(const Target& target, const StatusOptions& options);

} // namespace dlock::app
