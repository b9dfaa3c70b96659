#pragma once

#include "app/pause.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock pause NAME... (--for DURATION|forever | --until TIME) [--reason TEXT]`
class PauseCommand final : public PlannedCommand<PauseCommand> {
  public:
    explicit PauseCommand(CLI::App& parent);
    struct Plan {
        app::Target target;
        app::PauseOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    std::vector<std::string> names_;
    std::optional<std::string> for_;
    std::optional<std::string> until_;
    std::string reason_;
};

// `dlock resume NAME...`
class ResumeCommand final : public PlannedCommand<ResumeCommand> {
  public:
    explicit ResumeCommand(CLI::App& parent);
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
