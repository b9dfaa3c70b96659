#pragma once

#include "lock/backend.hpp"
#include "redis/protocol/reply.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace dlock::redis {

// What every decoder of a script reply shares. Decoding stays in src/redis: callers get typed
// results, never a reply to pick apart by position.

// A reply of the wrong shape: "unexpected reply from script NAME.lua" (Fault::internal).
Error bad_reply(const EmbeddedScript& script);

// A holder as the scripts reply with it, from list[from] on: host, pid, user, command, since
// (server ms), fencing token.
inline constexpr size_t kHolderFields = 6;
lock::HolderInfo holder_at(ReplyView list, size_t from);

// The replies of a script answering 1 or 0 (renew.lua, sem_renew.lua), as true or false.
std::vector<Result<bool>> as_flags(std::vector<Result<Reply>> replies,
                                   const EmbeddedScript& script);

// The scripts that write a history append the error of a failed write to their reply, at
// `index`; the operation itself succeeded, so it is only mentioned at -v.
void note_history_error(ReplyView reply, size_t index, std::string_view history_key);

} // namespace dlock::redis
