#pragma once

#include "lock/latches.hpp"
#include "lock/status.hpp"
#include "redis/protocol/reply.hpp"
#include "redis/scripts/script_reply.hpp"
#include "util/error.hpp"

#include <optional>

namespace dlock::redis {

// The replies of the latch scripts, each decoded here and nowhere else, by the layout its lua/
// file documents in its header ("Returns ..."). A reply of another shape, a field of another
// type or a status the script does not send is the script's "unexpected reply"
// (Fault::internal, 70).

// lua/latch_create.lua: {status, count, initial}; status 1 created, 0 refreshed, -1 conflict,
// -2 finished, 2 reset.
Result<lock::Latches::Created> decode_latch_create(ReplyView reply);

// lua/latch_count_down.lua: {status, count, woken}; status 1 counted down, 2 already applied,
// 0 no such latch.
Result<lock::Latches::CountedDown> decode_latch_count_down(ReplyView reply);

// lua/latch_wait.lua: {status, count}; status 0 no such latch, 1 done, 2 registered.
Result<lock::Latches::Round> decode_latch_wait(ReplyView reply);

// lua/latch_status.lua: {exists, count, initial, ttl_ms, waiters}; exists 1 or 0 (nullopt).
Result<std::optional<lock::LatchStatus>> decode_latch_status(ReplyView reply);

// A latch's count, initial count, ttl ms and live waiters, from element `from` on (as
// latch_status.lua and status.lua send them).
Result<lock::LatchStatus> latch_fields_at(const ScriptFields& fields, size_t from);

} // namespace dlock::redis
