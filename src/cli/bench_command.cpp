#include "cli/bench_command.hpp"

#include "lock/keys.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::cli {

BenchCommand::BenchCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "bench", "Measure this Redis as dlock uses it: acquire+release rate, handover latency");
    app_->add_option("--cycles", options_.cycles,
                     "uncontended acquire+release cycles (default 2000)")
        ->check(CLI::Range(1, 10'000'000));
    app_->add_option("-k,--waiters", options_.waiters,
                     "concurrent waiters per handover run, e.g. 8,32 (default 8,32)")
        ->delimiter(',')
        ->check(CLI::Range(1, 1000));
    app_->add_option("--handovers", options_.handovers, "handover samples per run (default 1000)")
        ->check(CLI::Range(1, 10'000'000));
    app_->add_option("--name", options_.name,
                     "lock name prefix for the bench keys (default dlock-bench)");
    app_->add_flag("--json", options_.json, "print JSON instead of a table");
}

int BenchCommand::execute(const GlobalOptions& globals) {
    auto connection = globals.resolve();
    if (!connection) {
        log::error("{}", connection.error().message);
        return connection.error().exit_code;
    }
    if (auto name = lock::validate_name(options_.name + "-handover-1000"); !name) {
        log::error("--name: {}", name.error().message);
        return exit_code::usage;
    }
    return app::bench(*connection, options_);
}

} // namespace dlock::cli
