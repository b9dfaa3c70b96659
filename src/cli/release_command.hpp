#pragma once

#include "app/force_release.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"
#include "lock/compat.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock release --force [--permit ID | --all-permits | --compat FORMAT] NAME`, or `dlock release
// [--hold ID]`: the hold of a `dlock acquire` (from $DLOCK_HOLD by default), released by its
// keeper.
class ReleaseCommand final : public PlannedCommand<ReleaseCommand> {
  public:
    explicit ReleaseCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::ForceReleaseOptions options;
        // Not empty: release these holds (no Redis settings needed).
        std::vector<std::string> holds;
        bool hold_inherited = false;              // from $DLOCK_HOLD, not --hold
        std::optional<int> status;                // --status: how the script ended
        std::optional<lock::CompatFormat> compat; // --compat FORMAT: options.name is its key
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::string name_;
    bool force_ = false;
    std::string permit_;
    bool all_permits_ = false;
    std::string hold_;
    std::string status_;
    std::string compat_;
};

} // namespace dlock::cli
