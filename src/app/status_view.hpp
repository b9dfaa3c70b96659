#pragma once

#include "lock/status.hpp"

#include <string>

namespace dlock::app {

// `dlock status` for people: one aligned row per holder (README, "dlock status").
std::string status_table(const lock::StatusReport& report);

// `dlock status --json`: the stable field names documented in the README.
std::string status_json(const lock::StatusReport& report);

// `dlock sem status`: a summary (limit, used, waiters), then one aligned row per permit.
std::string permits_table(const lock::SemaphorePermits& semaphore);

// `dlock sem status --json` (README, "Semaphores").
std::string permits_json(const lock::SemaphorePermits& semaphore);

} // namespace dlock::app
