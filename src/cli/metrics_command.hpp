#pragma once

#include "app/target.hpp"
#include "cli/command_support.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock metrics [NAME...] [--output FILE]`: the Prometheus text format, for node_exporter's
// textfile collector.
class MetricsCommand final : public PlannedCommand<MetricsCommand> {
  public:
    explicit MetricsCommand(CLI::App& parent);
    Result<app::Target> plan(const GlobalOptions& globals) const;
    Result<int> run(const app::Target& target);

  private:
    std::vector<std::string> names_;
    std::string output_; // "": stdout
    CLI::Option* output_option_ = nullptr;
};

} // namespace dlock::cli
