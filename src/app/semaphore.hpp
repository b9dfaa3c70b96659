#pragma once

#include "app/target.hpp"
#include "util/error.hpp"

#include <string>

namespace dlock::app {

struct SemaphoreStatusOptions {
    std::string name;
    bool json = false;
};

// `dlock sem status NAME [--json]`: reads the semaphore permit by permit (redis/status_reader)
// and prints it (app/status_view). 0 if a permit is held, exit_code::nothing if none.
Result<int> semaphore_status(const Target& target, const SemaphoreStatusOptions& options);

} // namespace dlock::app
