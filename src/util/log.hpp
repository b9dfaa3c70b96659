#pragma once

#include <fmt/core.h>
#include <string_view>
#include <utility>

// Logging front end. Messages go to stderr (stdout belongs to the command), one line each,
// prefixed "dlock: ", or as JSON objects; optionally to syslog. Only log.cpp sees spdlog, which
// keeps it out of every other translation unit (it is compiled header-only for start-up speed).
namespace dlock::log {

enum class Level { debug, info, warn, error };
enum class Format { text, json };

struct Options {
    Level level = Level::warn;
    Format format = Format::text; // of the lines on stderr
    // Every message also goes to syslog (ident "dlock", facility user, with the pid); stderr
    // then only gets errors, so a cron job that skips a run mails nobody but leaves a trace.
    bool syslog = false;
};

// verbosity: -1 errors only (-q), 0 warnings (default), 1 info (-v), 2 debug (-vv).
void setup(int verbosity);
void setup(const Options& options);
bool enabled(Level level);
// True when warnings reach stderr as plain "dlock: " text lines and debug lines do not (not -q,
// -vv, --log-format json or syslog): a line rewritten in place there meets no other line.
bool plain_warnings_on_stderr();
void write(Level level, std::string_view message);
// The one line explaining dlock's exit status: an error, and on stderr always "dlock: ...", even
// under -vv, whose other lines have the pid and the time.
void final_error(std::string_view message);

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
