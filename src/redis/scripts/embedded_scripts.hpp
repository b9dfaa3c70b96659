#pragma once

#include <span>
#include <string_view>

namespace dlock::redis {

// A lua/*.lua file compiled into the binary (see cmake/GenerateLuaSource.cmake).
struct EmbeddedScript {
    std::string_view name; // file name without .lua
    std::string_view sha1; // of the body, as Redis computes it for EVALSHA
    std::string_view body;
};

// Every script, sorted by name.
std::span<const EmbeddedScript> embedded_scripts();

// One handle per lua/NAME.lua, defined in the generated source: code names a script by its
// handle, so a misspelled name does not compile. A new lua/ file needs its line here (the
// generated source does not compile without it). Each script's header comment gives its KEYS,
// ARGV and reply.
namespace scripts {
// Locks (redis/stores/lock_backend.cpp, redis/stores/force_release.cpp).
extern const EmbeddedScript& acquire;       // take, re-enter or queue for a lease
extern const EmbeddedScript& renew;         // extend a lease we still hold
extern const EmbeddedScript& release;       // drop one hold, wake who can proceed
extern const EmbeddedScript& leave;         // a waiter gives up its place in the queue
extern const EmbeddedScript& force_release; // `dlock release --force NAME`
extern const EmbeddedScript& fence_commit;  // Redlock: commit the token chosen by a quorum
extern const EmbeddedScript& forget;        // `dlock forget NAME`: a free name's records go
extern const EmbeddedScript& pause;         // `dlock pause NAME`: no new holds until it ends
extern const EmbeddedScript& resume;        // `dlock resume NAME`: end the pause
// Semaphores (redis/stores/semaphore_backend.cpp, redis/stores/force_release.cpp).
extern const EmbeddedScript& sem_acquire;       // take or queue for one of LIMIT permits
extern const EmbeddedScript& sem_renew;         // extend a permit we still hold
extern const EmbeddedScript& sem_release;       // give a permit back and/or leave the queue
extern const EmbeddedScript& sem_force_release; // `dlock release --force --permit/--all-permits`
// Latches (redis/stores/latch_store.cpp).
extern const EmbeddedScript& latch_create;     // create, or refresh the TTL of the same latch
extern const EmbeddedScript& latch_count_down; // count down once per request id
extern const EmbeddedScript& latch_wait;       // one round of a waiter: check and register
extern const EmbeddedScript& latch_leave;      // a waiter gives up
extern const EmbeddedScript& latch_status;     // read a latch
// Schedule slots of `run --once-per` (redis/stores/slot_store.cpp).
extern const EmbeddedScript& slot; // claim the slot of now, or mark one done
// Other libraries' lock formats under `--compat` (redis/stores/compat_*_backend.cpp).
extern const EmbeddedScript& compat_setnx_acquire;    // SET NX PX, or our own value again
extern const EmbeddedScript& compat_setnx_renew;      // GET == ours -> PEXPIRE
extern const EmbeddedScript& compat_setnx_release;    // compare-and-delete
extern const EmbeddedScript& compat_redisson_acquire; // Redisson's RLock: HINCRBY our field
extern const EmbeddedScript& compat_redisson_renew;   // our field present -> PEXPIRE
extern const EmbeddedScript& compat_redisson_release; // HINCRBY -1; DEL + PUBLISH 0 at zero
extern const EmbeddedScript& compat_record;           // the dlock side's history and counters
extern const EmbeddedScript& compat_status;           // `status --compat`: the key as it is
extern const EmbeddedScript& compat_force_release;    // `release --force --compat`: DEL (+ 0)
// Reading and history (redis/stores/status_reader.cpp, redis/stores/history.cpp).
extern const EmbeddedScript& status;      // everything about one name (`dlock status`)
extern const EmbeddedScript& sem_status;  // a semaphore permit by permit (`dlock sem status`)
extern const EmbeddedScript& history_add; // append an event only the client sees
} // namespace scripts

} // namespace dlock::redis
