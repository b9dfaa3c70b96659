#pragma once

#include "app/force_release.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock release --force [--permit ID | --all-permits] NAME`, or `dlock release [--hold ID]`:
// the hold of a `dlock acquire` (from $DLOCK_HOLD by default), released by its keeper.
class ReleaseCommand final : public PlannedCommand<ReleaseCommand> {
  public:
    explicit ReleaseCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::ForceReleaseOptions options;
        std::string hold;            // not empty: release this hold (no Redis settings needed)
        bool hold_inherited = false; // from $DLOCK_HOLD, not --hold
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::string name_;
    bool force_ = false;
    std::string permit_;
    bool all_permits_ = false;
    std::string hold_;
};

} // namespace dlock::cli
