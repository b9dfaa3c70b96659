#pragma once

#include "app/force_release.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock release --force [--permit ID | --all-permits] NAME`
class ReleaseCommand final : public PlannedCommand<ReleaseCommand> {
  public:
    explicit ReleaseCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::ForceReleaseOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::string name_;
    bool force_ = false;
    std::string permit_;
    bool all_permits_ = false;
};

} // namespace dlock::cli
