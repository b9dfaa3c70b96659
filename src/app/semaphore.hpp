#pragma once

#include "app/run.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dlock::app {

// One live permit of a semaphore, as `dlock sem status` shows it.
struct PermitHolder {
    std::string permit; // the permit id ($DLOCK_PERMIT of its command)
    std::string host;
    int64_t pid = 0;
    std::string user;
    std::string command;
    int64_t since_ms = 0; // Redis server time of the acquisition
    int64_t ttl_ms = 0;   // lease left
    int64_t fence = 0;
};

struct SemaphoreState {
    std::string name;
    int64_t limit = 0; // 0: none known (nobody holds or waits)
    int64_t waiters = 0;
    int64_t now_ms = 0; // Redis server time of the reading
    std::vector<PermitHolder> holders;
};

struct SemaphoreStatusOptions {
    std::string name;
    bool json = false;
};

// Reads a semaphore (lua/sem_status.lua) without changing it.
Result<SemaphoreState> read_semaphore(const Connection& connection, const std::string& name);

// The table and JSON of `dlock sem status`.
std::string format_semaphore(const SemaphoreState& state);
std::string semaphore_json(const SemaphoreState& state);

// `dlock sem status NAME [--json]`: 0 if a permit is held, exit_code::nothing if none.
int semaphore_status(const Connection& connection, const SemaphoreStatusOptions& options);

} // namespace dlock::app
