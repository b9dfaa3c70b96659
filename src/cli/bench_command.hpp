#pragma once

#include "app/bench.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock bench [--cycles N] [--waiters K,K...] [--handovers N] [--name NAME] [--json]`
class BenchCommand final : public PlannedCommand<BenchCommand> {
  public:
    explicit BenchCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::BenchOptions bench;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    Result<app::BenchOptions> options() const;

    std::string cycles_ = "2000";
    std::vector<std::string> waiters_{"8", "32"};
    std::string handovers_ = "1000";
    std::string name_ = "dlock-bench";
    bool json_ = false;
};

} // namespace dlock::cli
