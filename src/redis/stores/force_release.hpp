#pragma once

#include "lock/backend.hpp"
#include "lock/keys.hpp"
#include "lock/status.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// `dlock release --force`: breaking a hold whoever has it (lua/force_release.lua and
// lua/sem_force_release.lua). `forcer` is recorded in the history; `heartbeat` is the waiters'
// heartbeat (the wake lists live twice that). A failed history write is logged at -v only.

// One owner's hold of a lock, broken.
struct BrokenHold {
    lock::LockStatus::State mode; // exclusive, shared, or min_hold: finished, kept by --min-hold
    lock::HolderInfo holder;
};

struct BrokenLock {
    int64_t woken = 0;             // waiters woken
    std::vector<BrokenHold> holds; // empty: it was not held (nothing changed)
};

Result<BrokenLock> force_release_lock(ScriptSession& session, const lock::Keys& keys,
                                      const lock::HolderInfo& forcer, Millis heartbeat);

// One permit of a semaphore, broken.
struct BrokenPermit {
    std::string permit; // its id
    lock::HolderInfo holder;
};

struct BrokenPermits {
    int64_t woken = 0;                 // waiters woken: as many as could take a freed permit
    std::vector<BrokenPermit> permits; // empty: no such live permit (nothing changed)
};

// Breaks permit `permit`, or every permit when it is "".
Result<BrokenPermits> force_release_permits(ScriptSession& session, const lock::Keys& keys,
                                            std::string_view permit, const lock::HolderInfo& forcer,
                                            Millis heartbeat);

} // namespace dlock::redis
