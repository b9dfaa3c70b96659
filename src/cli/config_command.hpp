#pragma once

#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>

namespace dlock::cli {

// `dlock config`: the effective global settings and where each came from.
class ConfigCommand {
  public:
    explicit ConfigCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    Result<int> execute(const GlobalOptions& globals);
    // Nothing to check: the settings were loaded (and checked) before.
    Result<void> check(const GlobalOptions&) const { return {}; }

  private:
    CLI::App* app_;
};

} // namespace dlock::cli
