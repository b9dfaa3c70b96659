#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>

namespace dlock::app {

// What `dlock release --force` breaks: the lock NAME, or permits of the semaphore NAME.
struct ForceReleaseOptions {
    std::string name;
    std::string permit;       // one permit of semaphore NAME, by id ("": not this)
    bool all_permits = false; // every permit of semaphore NAME
};

// A permit id as `dlock sem status` shows it (the holder's $DLOCK_PERMIT): 16 lowercase hex
// digits. Anything else is a usage error, reported before Redis is touched.
Result<std::string> parse_permit_id(std::string_view text);

// `dlock release --force NAME`: breaks the lock whoever holds it (exclusive, shared, or kept
// by --min-hold), wakes the waiters and records the forcer in the history. With a permit (or
// all_permits): breaks that permit (every permit) of the semaphore NAME instead and wakes as
// many semaphore waiters as permits it freed. Prints what it broke; 0 when it broke something,
// exit_code::nothing when there was nothing to break. The holders notice at their next
// renewal and stop their commands (exit 76).
// Under a quorum, every member breaks the lock; semaphores need a store that offers them.
Result<int> force_release(lock::Store& store, const Target& target,
                          const ForceReleaseOptions& options);

} // namespace dlock::app
