#include "util/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace dlock::log {
namespace {

spdlog::level::level_enum to_spdlog(Level level) {
    switch (level) {
    case Level::debug:
        return spdlog::level::debug;
    case Level::info:
        return spdlog::level::info;
    case Level::warn:
        return spdlog::level::warn;
    case Level::error:
        break;
    }
    return spdlog::level::err;
}

// Built on first use (thread-safe static), warnings and errors only until setup().
spdlog::logger& logger() {
    static spdlog::logger instance = [] {
        spdlog::logger l("dlock", std::make_shared<spdlog::sinks::stderr_sink_mt>());
        l.set_pattern("dlock: %v");
        l.set_level(spdlog::level::warn);
        l.flush_on(spdlog::level::trace);
        return l;
    }();
    return instance;
}

} // namespace

void setup(int verbosity) {
    auto& l = logger();
    l.set_pattern(verbosity >= 2 ? "dlock[%P] %H:%M:%S.%e %l: %v" : "dlock: %v");
    l.set_level(verbosity < 0    ? spdlog::level::err
                : verbosity == 0 ? spdlog::level::warn
                : verbosity == 1 ? spdlog::level::info
                                 : spdlog::level::debug);
    l.flush_on(spdlog::level::trace);
}

bool enabled(Level level) {
    return logger().should_log(to_spdlog(level));
}

void write(Level level, std::string_view message) {
    logger().log(to_spdlog(level), "{}", message);
}

} // namespace dlock::log
