#pragma once

#include "app/acquire.hpp"
#include "cli/global_options.hpp"
#include "cli/run_command.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock acquire [options] NAME...`: run's options (parsed by parse_run_options), no command,
// plus --pid and --format.
class AcquireCommand {
  public:
    explicit AcquireCommand(CLI::App& parent, const std::vector<std::string>* words = nullptr);
    CLI::App* app() const { return run_.app(); }
    Result<int> execute(const GlobalOptions& globals, const std::vector<std::string>& command);
    Result<void> check(const GlobalOptions& globals, const std::vector<std::string>& command) const;

  private:
    struct Plan {
        app::Target target;
        app::AcquireOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals, const std::vector<std::string>& command) const;

    RunCommand run_;
    std::string pid_;
    std::string format_ = "sh";
};

} // namespace dlock::cli
