#pragma once

#include "lock/backend.hpp"
#include "lock/keys.hpp"
#include "lock/status.hpp"
#include "lock/store.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// `dlock release --force`: breaking a hold whoever has it (lua/force_release.lua and
// lua/sem_force_release.lua). `forcer` is recorded in the history; `heartbeat` is the waiters'
// heartbeat (the wake lists live twice that). A failed history write is logged at -v only.

using BrokenHold = lock::BrokenHold;
using BrokenLock = lock::BrokenLock;
using BrokenPermit = lock::BrokenPermit;
using BrokenPermits = lock::BrokenPermits;

Result<BrokenLock> force_release_lock(ScriptSession& session, const lock::Keys& keys,
                                      const lock::HolderInfo& forcer, Millis heartbeat);

// Breaks permit `permit`, or every permit when it is "".
Result<BrokenPermits> force_release_permits(ScriptSession& session, const lock::Keys& keys,
                                            std::string_view permit, const lock::HolderInfo& forcer,
                                            Millis heartbeat);

// `dlock forget`: a free name's history, run counters, fencing counter and slot removed in one
// script (lua/forget.lua), or nothing when the name is held.
Result<lock::Forgotten> forget_name(ScriptSession& session, const lock::Keys& keys);

} // namespace dlock::redis
