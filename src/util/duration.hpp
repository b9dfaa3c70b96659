#pragma once

#include "util/error.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock {

using Millis = std::chrono::milliseconds;

// Parses "500ms", "30s", "2m", "1h", "1.5s", "2d"; a bare number means seconds.
// Rounds to the nearest ms. Rejects negative, empty, unknown units, exponents, NaN and
// infinity, and values beyond 100 years, whatever their length: no exception, ever.
Result<Millis> parse_duration(std::string_view text);

// Like parse_duration, but "forever" (or "inf") yields std::nullopt: no limit.
Result<std::optional<Millis>> parse_wait_duration(std::string_view text);

// Compact human form: "1.5s", "2m", "1h30m", "250ms".
std::string format_duration(Millis d);

// This host's wall clock in ms since the epoch, for showing ages against Redis timestamps.
int64_t wall_now_ms();

} // namespace dlock
