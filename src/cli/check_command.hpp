#pragma once

#include "app/check.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock check NAME... --max-age DURATION [--warn-age DURATION]`: a monitoring plugin. Usage
// errors are dlock's (one line on stderr, 64); everything after them is the plugin's line and
// status, a Redis failure included (UNKNOWN, 3).
class CheckCommand final : public PlannedCommand<CheckCommand> {
  public:
    explicit CheckCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::CheckOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::vector<std::string> names_;
    std::string max_age_;
    std::string warn_age_;
    CLI::Option* max_age_option_ = nullptr;
    CLI::Option* warn_age_option_ = nullptr;
};

} // namespace dlock::cli
