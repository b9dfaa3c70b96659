#pragma once

#include "cli/global_options.hpp"
#include "cli/run_command.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock sem run [run options] -p N NAME -- COMMAND [ARG...]` (or -c 'shell command')
// `dlock sem status NAME [--json]`
class SemCommand {
  public:
    explicit SemCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    bool runs_command() const { return run_.app()->parsed(); }
    // `command` is everything after "--" on the command line (only `sem run` takes one).
    Result<int> execute(const GlobalOptions& globals, const std::vector<std::string>& command);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals, const std::vector<std::string>& command) const;

  private:
    // `sem status`: its target, once its input is checked.
    Result<app::Target> status_target(const GlobalOptions& globals,
                                      const std::vector<std::string>& command) const;
    CLI::App* app_;
    RunCommand run_;
    CLI::App* status_;
    std::string name_;
    bool json_ = false;
};

} // namespace dlock::cli
