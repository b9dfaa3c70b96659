#pragma once

#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock status [NAME...] [--wide | --json]`, `dlock status --names`
class StatusCommand final : public PlannedCommand<StatusCommand> {
  public:
    explicit StatusCommand(CLI::App& parent);
    // The names are checked, then the global options resolved: the target.
    Result<app::Target> plan(const GlobalOptions& globals) const;
    Result<int> run(const app::Target& target);

  private:
    std::vector<std::string> names_;
    bool json_ = false;
    bool names_only_ = false;
    bool wide_ = false;
};

} // namespace dlock::cli
