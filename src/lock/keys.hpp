#pragma once

#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::lock {

// Lock names: 1-200 bytes of [A-Za-z0-9._:/@+=-]. Braces are excluded so a name can never
// break the Cluster hash tag that wraps it.
Result<std::string> validate_name(std::string_view name);

// Each of `names` once, in the order of first appearance (a name given twice is one name).
std::vector<std::string> distinct(const std::vector<std::string>& names);

// The key prefix (default "dlock") follows the same alphabet, 1-64 bytes.
Result<std::string> validate_prefix(std::string_view prefix);

// Every Redis key of one lock: "<prefix>:{<name>}:<part>". The hash tag keeps all of them in
// one Cluster slot, so each script touches a single slot.
struct Keys {
    std::string lock;    // hash: owner, holds, h:<hold id>, holder metadata
    std::string fence;   // integer counter: fencing tokens
    std::string queue;   // zset: waiter id -> arrival time (server us)
    std::string alive;   // zset: waiter id -> heartbeat deadline (server ms)
    std::string wake;    // prefix of per-waiter wake lists: wake + <waiter id>
    std::string readers; // zset: shared hold id -> lease deadline (server ms)
    std::string rinfo;   // hash: shared hold id -> holder; o:<owner> -> holds of that owner
    std::string xqueue;  // zset: the exclusive waiters of `queue`, same scores
    std::string history; // stream: acquisitions, releases, skips... (capped, kept 30 days)
    // The semaphore of the same name: a separate object (only the fencing counter is shared).
    std::string sem;     // hash: limit -> N; p:<permit id> -> owner, host, pid, user, cmd, ...
    std::string permits; // zset: permit id -> lease deadline (server ms)
    std::string squeue;  // zset: semaphore waiter id -> arrival time (server us)
    std::string salive;  // zset: semaphore waiter id -> heartbeat deadline (server ms)
    std::string swake;   // prefix of the semaphore waiters' wake lists: swake + <waiter id>
    // Prefix of permit release receipts: released + <permit id>, left by the release of a
    // permit for as long as it could have lasted, so that a retried release can tell its own
    // earlier success from a permit that vanished (locks look in their history instead).
    std::string released;
    // hash: exclusive waiter id -> what a release needs to grant it the lock (owner, hold id,
    // TTL, host, pid, user, cmd); lives with the queue (see docs/internals.md, "Waiting").
    std::string winfo;
    // hash: the last schedule slot done by `run --once-per` (slot, host, pid, user, at, fence);
    // expires a period after that slot ends (see lua/slot.lua).
    std::string slot;
    // hash: the run counters and the last run and success (lock/runs.hpp, lua/lib/runs.lua);
    // expires a year after its last write.
    std::string runs;
    // hash: the pause of the name by `dlock pause` (by, host, pid, reason, since, until);
    // expires when the pause ends (lua/pause.lua).
    std::string paused;

    static Keys of(std::string_view prefix, std::string_view name);
};

// Every Redis key of one latch (`dlock latch`), under the same hash tag as the lock's keys.
struct LatchKeys {
    std::string latch;   // hash: count, initial, created (server ms)
    std::string ids;     // set: applied count-down request ids (expires with the latch)
    std::string waiters; // zset: waiter id -> heartbeat deadline (server ms)
    std::string wake;    // prefix of per-waiter wake lists: wake + <waiter id>

    static LatchKeys of(std::string_view prefix, std::string_view name);
};

// The SCAN MATCH pattern of every key of every name under `prefix`: "<prefix>:{*}:*".
std::string names_pattern(std::string_view prefix);

// The name of `key` when it is "<prefix>:{<name>}:<part>" with a valid name and a part that
// exists only while the name is in use: the lock, shared holds, the queue, a semaphore, its
// permits, a latch or a pause (not the fencing counter or the history, which outlive every holder).
// nullopt for any other key.
std::optional<std::string_view> name_in_use(std::string_view prefix, std::string_view key);

// Which names a walk of the keyspace finds.
enum class NameScope {
    in_use, // held, waited for, paused, a semaphore or a latch (name_in_use)
    known,  // those, and every name with run counters (a job that ran and is free now)
};

// name_in_use, or with NameScope::known also the name of a run counters key.
std::optional<std::string_view> name_of(std::string_view prefix, std::string_view key,
                                        NameScope scope);

} // namespace dlock::lock
