#pragma once

#include "lock/compat.hpp"
#include "redis/protocol/reply.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>

namespace dlock::redis {

// The replies of the lua/compat_*.lua scripts, each decoded here and nowhere else, by the layout
// its file documents ("Returns ..."). Another shape is the script's "unexpected reply" (exit 70).
// The 1-or-0 replies of compat_setnx_renew, compat_setnx_release and compat_redisson_renew:
// flag_of in redis/scripts/script_reply.hpp.

// compat_setnx_acquire.lua and compat_redisson_acquire.lua.
struct CompatAcquireReply {
    bool acquired = false;
    int64_t holds = 0;        // acquired: our count (1 for setnx)
    int64_t left_ms = 0;      // refused: the holder's PTTL (-1: no expiry)
    std::string holder;       // refused: its value (setnx) or field (redisson); "": another type
    int64_t holder_count = 0; // refused, redisson: the holder's reentrant count
};
Result<CompatAcquireReply> decode_setnx_acquire(ReplyView reply);
Result<CompatAcquireReply> decode_redisson_acquire(ReplyView reply);

// compat_redisson_release.lua: {1 if ours, holds left}.
struct CompatReleaseReply {
    bool ours = false;
    int64_t holds_left = 0;
};
Result<CompatReleaseReply> decode_redisson_release(ReplyView reply);

// compat_status.lua and compat_force_release.lua: {type, PTTL, holder...}.
Result<lock::CompatReading> decode_compat_reading(ReplyView reply, const EmbeddedScript& script);

} // namespace dlock::redis
