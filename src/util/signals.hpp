#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>

namespace dlock {

// Parses "TERM", "SIGTERM", "term" or "15" into a signal number.
Result<int> parse_signal(std::string_view text);

// "TERM" for SIGTERM; "signal N" for unknown numbers.
std::string signal_name(int signo);

} // namespace dlock
