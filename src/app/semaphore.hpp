#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"
#include "util/exit_codes.hpp"

#include <string>

namespace dlock::app {

struct SemaphoreStatusOptions {
    std::string name;
    bool json = false;
};

// What `dlock sem status` found, for cli/status_view.hpp to show.
struct SemaphoreAnswer {
    lock::SemaphorePermits semaphore;
    int exit_status = exit_code::nothing; // 0 if a permit is held, exit_code::nothing if none
};

// `dlock sem status NAME`: reads the semaphore permit by permit, when `store` offers
// semaphores.
Result<SemaphoreAnswer> semaphore_status(lock::Store& store, const Target& target,
                                         const SemaphoreStatusOptions& options);

} // namespace dlock::app
