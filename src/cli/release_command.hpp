#pragma once

#include "app/force_release.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// `dlock release --force [--permit ID | --all-permits] NAME`
class ReleaseCommand {
  public:
    explicit ReleaseCommand(CLI::App& parent);
    CLI::App* app() const { return app_; }
    Result<int> execute(const GlobalOptions& globals);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals) const;

  private:
    struct Plan {
        app::Target target;
        app::ForceReleaseOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals) const;

    CLI::App* app_;
    std::string name_;
    bool force_ = false;
    std::string permit_;
    bool all_permits_ = false;
};

} // namespace dlock::cli
