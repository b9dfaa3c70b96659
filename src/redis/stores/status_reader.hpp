#pragma once

#include "lock/status.hpp"
#include "redis/scripts/script_session.hpp"

#include <string>
#include <vector>

namespace dlock::redis {

// Every name under `prefix` in `scope` (lock::NameScope), sorted. Walks the keyspace of every
// master with SCAN (never KEYS), so it does not block them.
Result<std::vector<std::string>> scan_names(ScriptSession& session, const std::string& prefix,
                                            lock::NameScope scope);

// The state of each name (lua/status.lua, pipelined: one round trip for all of them on each
// server, two when it must load the script first).
Result<lock::StatusReport> read_status(ScriptSession& session, const std::string& prefix,
                                       const std::vector<std::string>& names);

// The live permits of semaphore `name`, one by one (lua/sem_status.lua).
Result<lock::SemaphorePermits> read_permits(ScriptSession& session, const std::string& prefix,
                                            const std::string& name);

} // namespace dlock::redis
