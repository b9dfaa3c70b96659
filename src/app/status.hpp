#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"
#include "util/exit_codes.hpp"

#include <string>
#include <vector>

namespace dlock::app {

struct StatusOptions {
    std::vector<std::string> names; // empty: everything under the prefix
    bool json = false;
    bool names_only = false;  // `--names`: just the names in use, one per line
    bool every_known = false; // `--all`: every name in use or with runs counted
};

// What `dlock status` found, for cli/status_view.hpp to show.
struct StatusAnswer {
    std::vector<std::string> names; // with names_only: the names in use, sorted
    lock::StatusReading reading;    // otherwise
    // 0 when at least one name is held (a lock holder, a semaphore permit, a lock kept by
    // --min-hold; under a quorum, by a majority) or is an existing latch; exit_code::nothing
    // when none is. With every_known: 0 when any name is known.
    int exit_status = exit_code::nothing;
};

// `dlock status`: reads the names of options.names (or every name in use) from `store`.
Result<StatusAnswer> status(lock::Store& store, const Target& target, const StatusOptions& options);

} // namespace dlock::app
