#pragma once

#include "lock/backend.hpp"
#include "lock/runs.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlock::lock {

// What `dlock status` shows about one name, read in one round trip (lua/status.lua).

struct HolderStatus {
    HolderInfo info;   // host, pid, user, command, since (server ms), fencing token
    Millis ttl_left{}; // until the lease expires; -1 ms: no expiry
    int64_t holds = 1; // re-entries: holds (or semaphore permits) of this owner
};

struct LockStatus {
    enum class State {
        free,      // nobody holds it (there may still be waiters)
        exclusive, // one holder
        shared,    // one or more shared holders
        min_hold,  // the holder finished; --min-hold keeps it until held_until_ms
    };
    State state = State::free;
    std::vector<HolderStatus> holders; // oldest first
    int64_t waiters = 0;               // live queued waiters
    int64_t held_until_ms = 0;         // min_hold: server ms when it expires
};

struct SemaphoreStatus {
    int64_t limit = 0;
    std::vector<HolderStatus> holders; // one per owner, oldest first; holds = its permits
    int64_t waiters = 0;

    int64_t used() const;
};

struct LatchStatus {
    int64_t count = 0;
    int64_t initial = 0;
    Millis ttl_left{};
    int64_t waiters = 0;
};

struct NameStatus {
    std::string name;
    LockStatus lock;
    std::optional<SemaphoreStatus> semaphore;
    std::optional<LatchStatus> latch;
    RunStats runs{};             // counted by the lock's scripts (lock/runs.hpp)
    std::optional<Pause> paused; // `dlock pause`: no new run starts until it ends
    // A fencing counter without a history: semaphore permits took tokens here (a free
    // semaphore leaves nothing else), no lock did (its acquisitions write the history).
    bool semaphore_traces = false;

    // Held (a lock holder or a semaphore permit, also a --min-hold remainder) or an existing
    // latch: what `dlock status` exits 0 for.
    bool in_use() const;
    // What the name is when it is no lock but a semaphore or a latch, whose runs are not
    // counted ("a semaphore", also a free one known by its traces, "a latch"); nullptr for a
    // lock, or for nothing at all (a job that never ran).
    const char* uncounted_kind() const;
};

// One permit of a semaphore, as `dlock sem status` shows it.
struct PermitStatus {
    std::string permit; // the permit id ($DLOCK_PERMIT of its command)
    HolderInfo info;
    Millis ttl_left{};
};

// A semaphore permit by permit (`dlock sem status`); `dlock status` groups them by owner.
struct SemaphorePermits {
    std::string name;
    int64_t limit = 0; // 0: none in force (nobody holds or waits)
    int64_t waiters = 0;
    int64_t server_now_ms = 0;
    std::vector<PermitStatus> permits; // in the order their leases end
};

struct StatusReport {
    int64_t server_now_ms = 0; // "ago" and TTLs are relative to this, not the local clock
    std::vector<NameStatus> names;
};

// The name's lock state as shown in the table and JSON: "free", "exclusive", "shared",
// "min-hold".
const char* state_name(LockStatus::State state);

} // namespace dlock::lock
