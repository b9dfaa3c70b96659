#pragma once

#include <fmt/core.h>
#include <string_view>
#include <utility>

// Logging front end. Messages go to stderr (stdout belongs to the command), one line each,
// prefixed "dlock: ". Only log.cpp sees spdlog, which keeps it out of every other translation
// unit (it is compiled header-only for start-up speed).
namespace dlock::log {

enum class Level { debug, info, warn, error };

// verbosity: -1 errors only (-q), 0 warnings (default), 1 info (-v), 2 debug (-vv).
void setup(int verbosity);
bool enabled(Level level);
void write(Level level, std::string_view message);

template <typename... Args>
void at(Level level, fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(level))
        write(level, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... a) {
    at(Level::debug, f, std::forward<Args>(a)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... a) {
    at(Level::info, f, std::forward<Args>(a)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... a) {
    at(Level::warn, f, std::forward<Args>(a)...);
}
template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... a) {
    at(Level::error, f, std::forward<Args>(a)...);
}

} // namespace dlock::log
