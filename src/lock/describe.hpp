#pragma once

#include "lock/backend.hpp"

#include <string>
#include <vector>

namespace dlock::lock {

// "web-2 (pid 4242, since 02:00:01, token 17)": the holder as shown in refusals.
// The time is local; a date is added when it is not within the last day.
std::string describe_holder(const HolderInfo& holder, int64_t now_ms);

// "./backup.sh --full": argv joined with spaces, cut to `max_bytes` with "...".
std::string command_line(const std::vector<std::string>& argv, size_t max_bytes = 200);

} // namespace dlock::lock
