#include "cli/bench_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/numbers.hpp"
#include "lock/keys.hpp"

#include <fmt/format.h>

namespace dlock::cli {

BenchCommand::BenchCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "bench", "Measure this Redis as dlock uses it: acquire+release rate, handover latency");
    app_->add_option("--cycles", cycles_, "uncontended acquire+release cycles (default 2000)")
        ->option_text("N");
    app_->add_option("-k,--waiters", waiters_,
                     "concurrent waiters per handover run, e.g. 8,32 (default 8,32; 1-1000 each)")
        ->option_text("K,K...");
    app_->add_option("--handovers", handovers_, "handover samples per run (default 1000)")
        ->option_text("N");
    app_->add_option("--name", name_, "lock name prefix for the bench keys (default dlock-bench)")
        ->option_text("NAME");
    app_->add_flag("--json", json_, "print JSON instead of a table");
    app_->footer(exit_status_help(HelpPage::bench));
}

Result<app::BenchOptions> BenchCommand::options() const {
    app::BenchOptions o;
    o.name = name_;
    o.json = json_;
    TRY_ASSIGN(const int64_t cycles, parse_integer(cycles_, 1, 10'000'000, "--cycles"));
    o.cycles = static_cast<int>(cycles);
    TRY_ASSIGN(const int64_t handovers, parse_integer(handovers_, 1, 10'000'000, "--handovers"));
    o.handovers = static_cast<int>(handovers);
    o.waiters.clear();
    for (const std::string_view list : waiters_) { // "-k 8,32", "-k 8 32" or "-k 8 -k 32"
        for (size_t start = 0;;) {
            const auto comma = list.find(',', start);
            TRY_ASSIGN(const int64_t k,
                       parse_integer(list.substr(start, comma - start), 1, 1000, "--waiters"));
            o.waiters.push_back(static_cast<int>(k));
            if (comma == std::string_view::npos)
                break;
            start = comma + 1;
        }
    }
    if (auto name = lock::validate_name(o.name + "-handover-1000"); !name)
        return usage_error(fmt::format("--name: {}", name.error().message));
    return o;
}

Result<BenchCommand::Plan> BenchCommand::plan(const GlobalOptions& globals) const {
    Plan p;
    TRY_ASSIGN(p.target, globals.resolve());
    TRY_ASSIGN(p.bench, options());
    return p;
}

Result<int> BenchCommand::run(const Plan& p) {
    return app::bench(*store_for(p.target), p.target, p.bench);
}

} // namespace dlock::cli
