#include "util/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace dlock {

void setup_logging(int verbosity) {
    auto logger = spdlog::stderr_logger_mt("dlock");
    logger->set_pattern(verbosity >= 2 ? "dlock[%P] %H:%M:%S.%e %l: %v" : "dlock: %v");
    logger->set_level(verbosity < 0    ? spdlog::level::err
                      : verbosity == 0 ? spdlog::level::warn
                      : verbosity == 1 ? spdlog::level::info
                                       : spdlog::level::debug);
    logger->flush_on(spdlog::level::trace); // stderr is unbuffered anyway; keep order with the command
    spdlog::set_default_logger(std::move(logger));
}

} // namespace dlock
