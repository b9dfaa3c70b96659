#pragma once

#include "app/bench.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock bench [--cycles N] [--waiters K,K...] [--handovers N] [--name NAME] [--json]`
class BenchCommand {
  public:
    explicit BenchCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    int execute(const GlobalOptions& globals);

  private:
    CLI::App* app_;
    app::BenchOptions options_;
};

} // namespace dlock::cli
