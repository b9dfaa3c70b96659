#include "util/log.hpp"

#include "util/log_line.hpp"
#include "util/text.hpp"

#include <cstdio>
#include <mutex>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/sinks/syslog_sink.h>
#include <spdlog/spdlog.h>
#include <syslog.h>
#include <unistd.h>

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

std::string_view level_name(spdlog::level::level_enum level) {
    switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
        return "debug";
    case spdlog::level::info:
        return "info";
    case spdlog::level::warn:
        return "warn";
    default:
        return "error";
    }
}

constexpr const char* kPlain = "dlock: %v";
constexpr const char* kDecorated = "dlock[%P] %H:%M:%S.%e %l: %v";

// One JSON object per line on stderr (see log_line.hpp).
class JsonStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        const auto line = json_line(msg.time, level_name(msg.level), static_cast<long>(getpid()),
                                    std::string_view(msg.payload.data(), msg.payload.size()));
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::fflush(stderr);
    }
    void flush_() override { std::fflush(stderr); }
};

// Built on first use (thread-safe static), warnings and errors only until setup().
spdlog::logger& logger() {
    static spdlog::logger instance = [] {
        spdlog::logger l("dlock", std::make_shared<spdlog::sinks::stderr_sink_mt>());
        l.set_pattern(kPlain);
        l.set_level(spdlog::level::warn);
        l.flush_on(spdlog::level::trace);
        return l;
    }();
    return instance;
}

// The text sink on stderr when its lines are decorated (-vv), else null.
spdlog::sink_ptr decorated_sink;

// As of the last setup().
Options current;

spdlog::sink_ptr stderr_sink(Format format) {
    if (format == Format::json)
        return std::make_shared<JsonStderrSink>();
    return std::make_shared<spdlog::sinks::stderr_sink_mt>();
}

} // namespace

void setup(int verbosity) {
    setup(Options{verbosity < 0    ? Level::error
                  : verbosity == 0 ? Level::warn
                  : verbosity == 1 ? Level::info
                                   : Level::debug,
                  Format::text, false});
}

void setup(const Options& options) {
    current = options;
    auto& l = logger();
    auto& sinks = l.sinks();
    sinks.clear();
    auto to_stderr = stderr_sink(options.format);
    sinks.push_back(to_stderr);
    if (options.syslog) {
        // The message only: syslog adds time, host, "dlock[pid]:" and the priority itself.
        sinks.push_back(
            std::make_shared<spdlog::sinks::syslog_sink_mt>("dlock", LOG_PID, LOG_USER, false));
        to_stderr->set_level(spdlog::level::err);
    }
    // Sets every sink's formatter; the JSON and syslog sinks ignore it.
    const bool decorated = options.level == Level::debug && options.format == Format::text;
    l.set_pattern(options.level == Level::debug ? kDecorated : kPlain);
    decorated_sink = decorated ? to_stderr : nullptr;
    l.set_level(to_spdlog(options.level));
    l.flush_on(spdlog::level::trace);
}

bool enabled(Level level) {
    return logger().should_log(to_spdlog(level));
}

bool plain_warnings_on_stderr() {
    return current.format == Format::text && !current.syslog &&
           (current.level == Level::warn || current.level == Level::info);
}

void write(Level level, std::string_view message) {
    // One line per message, whatever user input it quotes.
    logger().log(to_spdlog(level), "{}", one_line(message));
}

void final_error(std::string_view message) {
    // Plain on stderr whatever the verbosity; syslog and JSON lines are as for any error.
    if (decorated_sink)
        decorated_sink->set_pattern(kPlain);
    write(Level::error, message);
    if (decorated_sink)
        decorated_sink->set_pattern(kDecorated);
}

} // namespace dlock::log
