#pragma once

#include "app/history.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock history [--compat FORMAT] NAME [-n COUNT] [--json]`
class HistoryCommand final : public PlannedCommand<HistoryCommand> {
  public:
    explicit HistoryCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::HistoryOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::string name_;
    std::string count_;
    CLI::Option* count_option_ = nullptr;
    bool json_ = false;
    std::string compat_;
};

} // namespace dlock::cli
