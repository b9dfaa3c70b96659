#pragma once

#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock forget NAME...`
class ForgetCommand final : public PlannedCommand<ForgetCommand> {
  public:
    explicit ForgetCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        std::vector<std::string> names; // distinct, in the order given
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::vector<std::string> names_;
};

} // namespace dlock::cli
