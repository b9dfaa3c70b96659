#pragma once

#include "util/error.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock {

using Millis = std::chrono::milliseconds;

// Parses "500ms", "30s", "2m", "1h", "1.5s", "2d"; a bare number means seconds. Parts add up:
// "1m30s", "1h15m", "2h30m15s", "1d12h", "1s500ms", their units from largest to smallest
// (d, h, m, s, ms), each at most once. Only the last part may have a fraction ("1m30.5s", not
// "1.5m30s"): a fraction before a smaller unit reads as a typo. A number after a part needs its
// own unit ("1m30" is refused: seconds, or a typo for 1m30s?); only a lone number means seconds.
// Rounds to the nearest ms. Rejects negative, empty, unknown units, exponents, NaN and
// infinity, and values beyond 100 years (the sum of the parts), whatever their length: no
// exception, ever. Each refusal is a usage error naming the problem.
Result<Millis> parse_duration(std::string_view text);

// Like parse_duration, but "forever" (or "inf") yields std::nullopt: no limit.
Result<std::optional<Millis>> parse_wait_duration(std::string_view text);

// Compact human form: "1.5s", "2m", "1h30m", "250ms"; parse_duration reads every one back (to
// the precision shown).
std::string format_duration(Millis d);

// Exact form, for a value shown as an option to give again: the largest units that add up to it
// ("366d", "1s999ms", "1h30m"; "-2h" for a negative one); parse_duration reads it back whole.
std::string format_duration_exact(Millis d);

// This host's wall clock in ms since the epoch, for showing ages against Redis timestamps.
int64_t wall_now_ms();

} // namespace dlock
