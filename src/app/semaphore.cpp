#include "app/semaphore.hpp"

#include "util/exit_codes.hpp"

namespace dlock::app {

Result<SemaphoreAnswer> semaphore_status(lock::Store& store, const Target& target,
                                         const SemaphoreStatusOptions& options) {
    const lock::Capabilities offered = store.capabilities();
    TRY(lock::require(offered.semaphores, offered, "dlock sem status"));
    SemaphoreAnswer answer;
    TRY_ASSIGN(answer.semaphore, store.semaphore(target.prefix, options.name));
    answer.exit_status = answer.semaphore.permits.empty() ? exit_code::nothing : exit_code::ok;
    return answer;
}

} // namespace dlock::app
