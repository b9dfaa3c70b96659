#pragma once

#include "app/status.hpp"
#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlock::app {

struct WatchOptions {
    std::vector<std::string> names; // empty: every name in use or that ran, under the prefix
    Millis interval{1000};          // between the end of one read and the next
};

// What one frame of `dlock status --watch` shows.
struct WatchState {
    const StatusAnswer* last_good = nullptr; // the newest successful read (never null)
    const Error* failure = nullptr;          // why the newest read failed; null when it did not
    int64_t failed_at_ms = 0;                // this host's clock at that failure
};

// The lines of a frame (cli/watch_view.hpp draws them; the terminal cuts them to fit).
using WatchView = std::function<std::vector<std::string>(const WatchState&)>;

// `dlock status --watch`: reads the names from `store` every interval and draws each reading on
// stdout (a terminal) in place, until SIGINT (then 0), SIGTERM or SIGHUP (then dlock ends by that
// signal, as it would have). The first read failing is the error returned (nothing drawn);
// later failures are shown above the last good reading, retried every interval.
Result<int> watch_status(lock::Store& store, const Target& target, const WatchOptions& options,
                         const WatchView& view);

} // namespace dlock::app
