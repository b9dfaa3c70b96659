#pragma once

#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock status [NAME...] [--json]`, `dlock status --names`
class StatusCommand {
  public:
    explicit StatusCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    Result<int> execute(const GlobalOptions& globals);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals) const;

  private:
    Result<app::Target> target(const GlobalOptions& globals) const;
    CLI::App* app_;
    std::vector<std::string> names_;
    bool json_ = false;
    bool names_only_ = false;
};

} // namespace dlock::cli
