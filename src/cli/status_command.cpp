#include "cli/status_command.hpp"

#include "app/status.hpp"
#include "cli/command_support.hpp"

namespace dlock::cli {
namespace {

constexpr const char* kStatusExitStatus = R"(
Exit status:
  0        something is held: a lock (also one kept by --min-hold), a semaphore permit, or an
           existing latch (with NAMEs: at least one of them; with --names: some name is listed)
  1        nothing is held (every NAME is free)
  64       usage error
  69       Redis unreachable, or authentication failed
  70       internal error)";

} // namespace

StatusCommand::StatusCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "status", "Show who holds locks, semaphores and latches (all under the prefix, or NAMEs)");
    app_->add_option("NAME", names_, "names to show (default: every name in use)");
    auto json = app_->add_flag("--json", json_, "print JSON instead of a table");
    app_->add_flag("--names", names_only_, "print only the names in use, one per line")
        ->excludes(json);
    app_->footer(kStatusExitStatus);
}

Result<app::Target> StatusCommand::target(const GlobalOptions& globals) const {
    if (names_only_ && !names_.empty())
        return usage_error("--names lists every name in use; it takes no NAME");
    return target_for(globals, names_);
}

Result<void> StatusCommand::check(const GlobalOptions& globals) const {
    return target(globals).map([](const app::Target&) {});
}

Result<int> StatusCommand::execute(const GlobalOptions& globals) {
    TRY_ASSIGN(const auto ready, target(globals));
    return app::status(ready, {names_, json_, names_only_});
}

} // namespace dlock::cli
