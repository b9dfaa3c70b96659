#pragma once

#include "cli/command_support.hpp"
#include "cli/global_options.hpp"
#include "util/duration.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

struct StatusPlan {
    app::Target target;
    std::vector<std::string> names; // NAME..., and the one --watch took for its value
    bool watch = false;
    Millis interval{1000};
};

// `dlock status [NAME...] [--wide | --json]`, `dlock status --names`,
// `dlock status [NAME...] --watch [INTERVAL]`
class StatusCommand final : public PlannedCommand<StatusCommand> {
  public:
    explicit StatusCommand(CLI::App& parent);
    // The names and the interval are checked, then the global options resolved.
    Result<StatusPlan> plan(const GlobalOptions& globals) const;
    Result<int> run(const StatusPlan& plan);

  private:
    // --watch: refused unless stdout is a terminal.
    Result<int> watch(const StatusPlan& plan) const;

    std::vector<std::string> names_;
    std::vector<std::string> watch_; // what --watch took: nothing, an INTERVAL or a NAME
    bool json_ = false;
    bool names_only_ = false;
    bool wide_ = false;
};

} // namespace dlock::cli
