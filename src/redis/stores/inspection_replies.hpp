#pragma once

#include "lock/slots.hpp"
#include "lock/status.hpp"
#include "lock/store.hpp"
#include "redis/protocol/reply.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace dlock::redis {

// The replies of the scripts that read or break what others hold, each decoded here and nowhere
// else, by the layout its lua/ file documents in its header ("Returns ..."). A reply of another
// shape, or a field of another type, is the script's "unexpected reply" (Fault::internal, 70).

// lua/status.lua: {server now ms, lock, shared holders, lock waiters, latch, semaphore, runs},
// as the status of `name` (ttl_left of each holder: from the server's now).
struct StatusReply {
    int64_t now_ms = 0;
    lock::NameStatus status;
};
Result<StatusReply> decode_status(const std::string& name, ReplyView reply);

// lua/sem_status.lua: {now ms, limit, live waiters, then per permit: id, deadline ms, host, pid,
// user, cmd, since ms, fence}, as the permits of `name`.
Result<lock::SemaphorePermits> decode_sem_status(const std::string& name, ReplyView reply);

// lua/force_release.lua: {waiters woken, history error or "", then per holder broken: {mode,
// host, pid, user, cmd, since ms, fencing token}}.
struct ForceReleaseReply {
    lock::BrokenLock broken;
    std::string history_error;
};
Result<ForceReleaseReply> decode_force_release(ReplyView reply);

// lua/forget.lua: {held ("", "x", "s" or "p"), keys removed}.
Result<lock::Forgotten> decode_forget(ReplyView reply);

// lua/sem_force_release.lua: {waiters woken, history error or "", permits still held, then per
// permit broken: {permit id, host, pid, user, cmd, since ms, fencing token}}.
struct SemForceReleaseReply {
    lock::BrokenPermits broken;
    int64_t permits_held = 0;
    std::string history_error;
};
Result<SemForceReleaseReply> decode_sem_force_release(ReplyView reply);

// lua/slot.lua: {-2, type} (the slot key is not a hash: `foreign_type` says what it is), {-1}
// (lost), {1, slot, acquisition ms[, period, offset, host[, mark]]} (open), or {0, slot, done
// slot, host, pid, user, at ms, fence} (done).
struct SlotReply {
    std::optional<std::string> foreign_type; // the key holds something else: `answer` is empty
    lock::SlotAnswer answer;
};
Result<SlotReply> decode_slot(ReplyView reply);

} // namespace dlock::redis
