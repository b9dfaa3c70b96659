#pragma once

#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock release --force [--permit ID | --all-permits] NAME`
class ReleaseCommand {
  public:
    explicit ReleaseCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    int execute(const GlobalOptions& globals);

  private:
    CLI::App* app_;
    std::string name_;
    bool force_ = false;
    std::string permit_;
    bool all_permits_ = false;
};

} // namespace dlock::cli
