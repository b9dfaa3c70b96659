#pragma once

#include "app/history.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock history NAME [-n COUNT] [--json]`
class HistoryCommand {
  public:
    explicit HistoryCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    Result<int> execute(const GlobalOptions& globals);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals) const;

  private:
    struct Plan {
        app::Target target;
        app::HistoryOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    CLI::App* app_;
    std::string name_;
    std::string count_;
    CLI::Option* count_option_ = nullptr;
    bool json_ = false;
};

} // namespace dlock::cli
