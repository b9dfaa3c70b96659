#pragma once

#include "lock/runs.hpp"
#include "redis/protocol/reply.hpp"

#include <array>
#include <string_view>

namespace dlock::redis {

// The fields of a name's run counters hash that lua/status.lua reads (HMGET, in this order);
// written by lua/lib/runs.lua.
// The counters come first, in the order of lock::kOutcomes.
inline constexpr std::array<std::string_view, 16> kRunFields{"ok",
                                                             "failed",
                                                             "timed_out",
                                                             "lost",
                                                             "skipped_busy",
                                                             "skipped_slot_done",
                                                             "skipped_paused",
                                                             "unknown",
                                                             "last_outcome",
                                                             "last_end_ms",
                                                             "last_duration_ms",
                                                             "last_exit",
                                                             "last_host",
                                                             "success_end_ms",
                                                             "success_duration_ms",
                                                             "success_host"};

// The run counters from the values of kRunFields (nil for a missing field). Whatever the hash
// holds, the result is sane: counters and durations at least 0, a record only with a positive
// end time, hosts on one line and at most 255 bytes.
lock::RunStats parse_runs(ReplyView values);

} // namespace dlock::redis
