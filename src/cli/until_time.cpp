#include "cli/until_time.hpp"

#include "util/text.hpp"

#include <ctime>
#include <fmt/format.h>
#include <optional>
#include <string>

namespace dlock::cli {
namespace {

// `text` read by strptime `format` to its very end, or nullopt.
std::optional<tm> read_as(const std::string& text, const char* format) {
    tm fields{};
    const char* end = strptime(text.c_str(), format, &fields);
    if (end == nullptr || *end != '\0')
        return std::nullopt;
    return fields;
}

// A date and time, with or without seconds, with a space or a T between them.
std::optional<tm> read_date_time(const std::string& text) {
    for (const char* format :
         {"%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"})
        if (auto fields = read_as(text, format))
            return fields;
    return std::nullopt;
}

// The next local `clock` time (hours, minutes, seconds of `clock`) after `now_s`, in seconds.
time_t next_clock_time(const tm& clock, time_t now_s) {
    tm day{};
    localtime_r(&now_s, &day);
    day.tm_hour = clock.tm_hour;
    day.tm_min = clock.tm_min;
    day.tm_sec = clock.tm_sec;
    day.tm_isdst = -1;
    time_t at = mktime(&day);
    if (at <= now_s) { // passed today: tomorrow, by the calendar (a day may not be 24 hours)
        day.tm_mday += 1;
        day.tm_isdst = -1;
        at = mktime(&day);
    }
    return at;
}

} // namespace

Result<Millis> until_local_time(std::string_view option, std::string_view given, int64_t now_ms) {
    const std::string text(given);
    const time_t now_s = static_cast<time_t>(now_ms / 1000);
    time_t at = -1;
    if (auto clock = read_as(text, "%H:%M:%S"); clock || (clock = read_as(text, "%H:%M")))
        at = next_clock_time(*clock, now_s);
    else if (auto fields = read_date_time(text)) {
        fields->tm_isdst = -1;
        at = mktime(&*fields);
    } else
        return usage_error(fmt::format("{} {}: not a local time (14:00, 14:00:30, or "
                                       "2026-12-01 14:00)",
                                       option, quote(text)));
    const int64_t left = static_cast<int64_t>(at) * 1000 - now_ms;
    if (at == -1 || left <= 0)
        return usage_error(fmt::format("{} {}: not in the future", option, quote(text)));
    return Millis(left);
}

} // namespace dlock::cli
