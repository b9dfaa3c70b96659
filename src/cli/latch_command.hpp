#pragma once

#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock latch create NAME COUNT [--ttl DURATION]`
// `dlock latch count-down NAME [N]`
// `dlock latch wait NAME [-w DURATION] [-E N]`
// `dlock latch status NAME [--json]`
class LatchCommand {
  public:
    explicit LatchCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    int execute(const GlobalOptions& globals);

  private:
    CLI::App* app_;
    CLI::App* create_;
    CLI::App* count_down_;
    CLI::App* wait_;
    CLI::App* status_;
    std::string name_;
    std::string count_;       // create COUNT, count-down N
    std::string ttl_ = "24h"; // create --ttl
    std::string wait_for_;    // wait -w; empty: no limit
    int timeout_exit_code_ = exit_code::busy;
    bool json_ = false;
};

} // namespace dlock::cli
