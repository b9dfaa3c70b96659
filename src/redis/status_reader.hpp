#pragma once

#include "lock/status.hpp"
#include "redis/connection.hpp"

#include <string>
#include <vector>

namespace dlock::redis {

// Every name under `prefix` that has a lock, shared holds, waiters, a semaphore or a latch,
// sorted. Walks the keyspace with SCAN (never KEYS), so it does not block the server.
Result<std::vector<std::string>> scan_names(Connection& conn, const std::string& prefix);

// The state of each name (lua/status.lua, pipelined: one round trip for all of them, two when
// Redis must load the script first).
Result<lock::StatusReport> read_status(Connection& conn, const std::string& prefix,
                                       const std::vector<std::string>& names);

// The live permits of semaphore `name`, one by one (lua/sem_status.lua).
Result<lock::SemaphorePermits> read_permits(Connection& conn, const std::string& prefix,
                                            const std::string& name);

} // namespace dlock::redis
