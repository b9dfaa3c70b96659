#pragma once

#include "app/status.hpp"
#include "lock/status.hpp"

#include <string>

namespace dlock::cli {

// `dlock status` for people: one aligned row per holder (docs/reference.md, "dlock status").
std::string status_table(const lock::StatusReport& report);

// `dlock status --json`: the stable field names documented in docs/reference.md.
std::string status_json(const lock::StatusReport& report);

// `dlock sem status`: a summary (limit, used, waiters), then one aligned row per permit.
std::string permits_table(const lock::SemaphorePermits& semaphore);

// `dlock sem status --json` (docs/reference.md, "Semaphores").
std::string permits_json(const lock::SemaphorePermits& semaphore);

// What `dlock status` prints for `answer`: the names (--names), the JSON (`json`) or the table of
// one deployment; under a quorum each member's view, then the majority's. `prefix` names what
// was searched when nothing was found.
std::string status_text(const app::StatusAnswer& answer, const std::string& prefix, bool json,
                        bool names_only);

} // namespace dlock::cli
