#pragma once

#include "app/latch.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock latch create NAME COUNT [--ttl DURATION] [--reset]`
// `dlock latch count-down NAME [N]`
// `dlock latch wait NAME [-w DURATION] [-E N]`
// `dlock latch status NAME [--json]`
class LatchCommand final : public PlannedCommand<LatchCommand> {
  public:
    explicit LatchCommand(CLI::App& parent);
    // The parsed subcommand's options, checked.
    struct Plan {
        app::Target target;
        app::LatchCreateOptions create;
        app::LatchCountDownOptions count_down;
        app::LatchWaitOptions wait;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;
    Result<int> run(const Plan& plan);

  private:
    CLI::App* create_;
    CLI::App* count_down_;
    CLI::App* wait_;
    CLI::App* status_;
    CLI::Option* count_down_n_ = nullptr;
    CLI::Option* wait_for_option_ = nullptr;
    std::string name_;
    std::string count_;                    // create COUNT, count-down N
    std::string ttl_ = "24h";              // create --ttl
    std::string wait_for_;                 // wait -w; not given: no limit
    std::string timeout_exit_code_ = "75"; // wait -E
    bool json_ = false;
    bool reset_ = false;
};

} // namespace dlock::cli
