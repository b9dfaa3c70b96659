#include "util/log_line.hpp"

#include "util/json.hpp"

#include <ctime>
#include <fmt/format.h>

namespace dlock::log {

std::string json_line(std::chrono::system_clock::time_point time, std::string_view level, long pid,
                      std::string_view message) {
    using namespace std::chrono;
    const auto ms = duration_cast<milliseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    return fmt::format("{{\"time\":\"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z\",\"level\":{},"
                       "\"pid\":{},\"message\":{}}}\n",
                       utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                       utc.tm_sec, (ms % 1000 + 1000) % 1000, json_string(level), pid,
                       json_string(message));
}

} // namespace dlock::log
