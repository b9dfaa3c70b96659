#pragma once

#include "cli/command_support.hpp"
#include "cli/global_options.hpp"
#include "lock/compat.hpp"
#include "util/duration.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

struct StatusPlan {
    app::Target target;
    std::vector<std::string> names; // NAME..., and the one --watch took for its value
    bool watch = false;
    Millis interval{1000};
    std::optional<lock::CompatFormat> compat; // --compat FORMAT: names.front() is its key
};

// `dlock status [NAME...] [--wide | --json]`, `dlock status --names`,
// `dlock status [NAME...] --watch [INTERVAL]`, `dlock status --compat FORMAT NAME`
class StatusCommand final : public PlannedCommand<StatusCommand> {
  public:
    explicit StatusCommand(CLI::App& parent);
    // The names and the interval are checked, then the global options resolved.
    Result<StatusPlan> plan(const GlobalOptions& globals) const;
    Result<int> run(const StatusPlan& plan);

  private:
    // --compat FORMAT NAME: one key of another library, on one deployment.
    Result<StatusPlan> compat_plan(const GlobalOptions& globals) const;
    // --watch: refused unless stdout is a terminal.
    Result<int> watch(const StatusPlan& plan) const;

    std::vector<std::string> names_;
    std::vector<std::string> watch_; // what --watch took: nothing, an INTERVAL or a NAME
    bool json_ = false;
    bool names_only_ = false;
    bool wide_ = false;
    bool all_ = false;
    std::string compat_;
};

} // namespace dlock::cli
