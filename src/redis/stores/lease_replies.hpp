#pragma once

#include "lock/backend.hpp"
#include "redis/protocol/reply.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dlock::redis {

// The replies of the lease scripts, each decoded here and nowhere else, by the layout its
// lua/ file documents in its header ("Returns ..."). A reply of another shape, or a field of
// another type, is the script's "unexpected reply" (Fault::internal, exit 70). The 1-or-0
// replies of renew.lua, sem_renew.lua and fence_commit.lua: flag_of in
// redis/scripts/script_reply.hpp.

// lua/acquire.lua.
struct AcquireReply {
    enum class Kind {
        granted,         // {1, fencing token, holds, granted mode}
        refused,         // {0, ms left, host, pid, user, cmd, since ms, fencing token, queued
                         //  waiters, shared holders, held until, heartbeat window}
        upgrade_refused, // {-1}: an exclusive request by an owner holding the name shared
        paused, // {-2, until ms, by, host, reason, since ms, recorded}: `dlock pause` is on
    };
    Kind kind = Kind::refused;
    int64_t fence = 0;       // granted
    int64_t holds = 0;       // granted
    bool shared = false;     // granted: mode "s" (else "x")
    int64_t left_ms = 0;     // refused, and below
    lock::HolderInfo holder; // host "" and pid 0: nobody (free, others queued first)
    int64_t waiters = 0;
    int64_t shared_holders = 0;
    int64_t held_until_ms = 0;
    int64_t window_ms = 0;
    lock::Pause pause;         // paused
    std::string history_error; // appended to a grant or a refusal when the history failed
};
Result<AcquireReply> decode_acquire(ReplyView reply);

// lua/release.lua: {1, holds the owner has left} when the hold was ours, {0, 0} when not; then
// the history error, if any.
struct ReleaseReply {
    bool ours = false;
    int64_t holds_left = 0;
    std::string history_error;
};
Result<ReleaseReply> decode_release(ReplyView reply);

// lua/sem_acquire.lua.
struct SemAcquireReply {
    enum class Kind {
        granted,       // {1, fencing token, permits held}
        limit_differs, // {-1, limit in force, permits held}
        refused,       // {0, ms left, limit, permits held, queued waiters, then holders}
    };
    Kind kind = Kind::refused;
    int64_t fence = 0; // granted
    int64_t limit = 0; // limit_differs, refused
    int64_t permits_held = 0;
    int64_t left_ms = 0; // refused, and below
    int64_t waiters = 0;
    std::vector<lock::HolderInfo> holders; // up to 5: host, pid, user, cmd, since ms, fence
};
Result<SemAcquireReply> decode_sem_acquire(ReplyView reply);

// lua/sem_release.lua: {1 if the permit was ours and is now released (else 0), permits held}.
struct SemReleaseReply {
    bool released = false;
    int64_t permits_held = 0;
};
Result<SemReleaseReply> decode_sem_release(ReplyView reply);

} // namespace dlock::redis
