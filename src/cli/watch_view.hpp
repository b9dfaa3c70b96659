#pragma once

#include "app/status_watch.hpp"
#include "cli/status_view.hpp"
#include "lock/status.hpp"
#include "lock/store.hpp"

#include <string>
#include <vector>

namespace dlock::cli {

// What the header line of every frame names.
struct WatchHeader {
    std::string prefix;
    std::string redis; // the deployment, no credentials ("h:6379", "Redlock of 3 members")
    Millis interval{1000};
    StatusStyle style = StatusStyle::table; // table or wide
};

// One frame of `dlock status --watch` (docs/reference.md, "dlock status --watch"): the header;
// with a failed read, the error above it and the reading below marked stale; then the table of
// `dlock status` and the last runs of each name that ran.
std::vector<std::string> watch_lines(const app::WatchState& state, const WatchHeader& header);

// The last runs of the names in `reading` that ran, one row each under a header row: outcome,
// when it ended, where, how long it took, its exit status, the last success and the counts. A
// line that says so when none ran.
std::string runs_table(const lock::StatusReading& reading);

} // namespace dlock::cli
