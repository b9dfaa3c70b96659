#pragma once

#include "lock/backend.hpp"

#include <string>
#include <vector>

namespace dlock::lock {

// "web-2 (pid 4242, since 02:00:01, token 17)": the holder as the history and release --force
// record it. The time is local; a date is added when it is not within the last day.
std::string describe_holder(const HolderInfo& holder, int64_t now_ms);

// "web-2 (pid 4242, since 02:00:01)": the holder as refusals show it, without the fencing token
// (`dlock status --wide` and the history have it).
std::string describe_blocker(const HolderInfo& holder, int64_t now_ms);

// "released by --force by alice@ops-1 (pid 4242) at 13:05:12": why a holder lost its lease.
std::string describe_force(const ForcedRelease& forced, int64_t now_ms);

// `ms` (since the epoch) as local "02:00:01", or "2026-11-02 02:00:01" when it is not within a
// day of `now_ms`.
std::string local_time(int64_t ms, int64_t now_ms);

// `ms` (since the epoch) as local "2026-11-02 02:00:01".
std::string local_datetime(int64_t ms);

// An age for people, to the second: "0s", "42s", "3m12s", "5h02m", "3d04h".
std::string format_age(Millis age);

// Why a semaphore refused a permit, to follow "<name> is" in a refusal:
// "at its limit of 3 permits, held by web-1 (pid 4242, since 02:00:01), ..." or
// "at 2 of 3 permits, but 4 waiters are queued first".
std::string describe_permits(const AcquireOutcome& refused, int64_t now_ms);

// "paused by alice@ops-1 until 14:00:00 (db migration)", or "... with no end" for a pause
// only `dlock resume` ends: a pause, to follow "<name> is".
std::string describe_pause(const Pause& pause, int64_t now_ms);

// "./backup.sh --full": argv joined with spaces, cut to `max_bytes` with "...".
std::string command_line(const std::vector<std::string>& argv, size_t max_bytes = 200);

// `text` cut to `max_bytes` with "..." (never inside a UTF-8 sequence); unchanged if it fits.
std::string cut(std::string text, size_t max_bytes);

} // namespace dlock::lock
