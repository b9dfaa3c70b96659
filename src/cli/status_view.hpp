#pragma once

#include "app/status.hpp"
#include "lock/status.hpp"

#include <optional>
#include <string>

namespace dlock::cli {

// How `dlock status` shows what it found.
enum class StatusStyle {
    table, // the columns that fit 100 columns for a typical holder, a long COMMAND cut
    wide,  // every column (--wide, -l)
    json,  // --json
    names, // --names: only the names in use
};

// `dlock status` for people: one aligned row per holder (docs/reference.md, "dlock status");
// `table` or `wide`.
std::string status_table(const lock::StatusReport& report, StatusStyle style = StatusStyle::table);

// `dlock status --json`: the stable field names documented in docs/reference.md.
std::string status_json(const lock::StatusReport& report);

// A name's pause in the JSON of `status --json` and `status --all --json`: {"by", "reason",
// "since_ms", "until_ms" (null: no end)}, or null when it is not paused.
std::string pause_json(const std::optional<lock::Pause>& pause);

// `dlock sem status`: a summary (limit, used, waiters), then one aligned row per permit.
std::string permits_table(const lock::SemaphorePermits& semaphore);

// `dlock sem status --json` (docs/reference.md, "Semaphores").
std::string permits_json(const lock::SemaphorePermits& semaphore);

// What `dlock status` prints for `answer` in `style`: the names, the JSON or the table of one
// deployment; under a quorum each member's view, then the majority's. `prefix` names what was
// searched when nothing was found.
std::string status_text(const app::StatusAnswer& answer, const std::string& prefix,
                        StatusStyle style);

} // namespace dlock::cli
