#pragma once

#include "app/bench.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock bench [--cycles N] [--waiters K,K...] [--handovers N] [--name NAME] [--json]`
class BenchCommand {
  public:
    explicit BenchCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    Result<int> execute(const GlobalOptions& globals);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals) const;

  private:
    Result<app::BenchOptions> options() const;

    CLI::App* app_;
    std::string cycles_ = "2000";
    std::vector<std::string> waiters_{"8", "32"};
    std::string handovers_ = "1000";
    std::string name_ = "dlock-bench";
    bool json_ = false;
};

} // namespace dlock::cli
