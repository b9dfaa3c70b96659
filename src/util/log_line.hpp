#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace dlock::log {

// One log line for log shippers, newline included:
//   {"time":"2026-11-22T08:45:01.123Z","level":"warn","pid":4242,"message":"..."}
// time is UTC with milliseconds; message is escaped so the line is always valid JSON.
std::string json_line(std::chrono::system_clock::time_point time, std::string_view level, long pid,
                      std::string_view message);

} // namespace dlock::log
