#include "cli/status_command.hpp"

#include "app/status.hpp"
#include "lock/keys.hpp"
#include "util/log.hpp"

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

int StatusCommand::execute(const GlobalOptions& globals) {
    for (const auto& name : names_)
        if (auto valid = lock::validate_name(name); !valid) {
            log::error("{}", valid.error().message);
            return exit_code::usage;
        }
    if (names_only_ && !names_.empty()) {
        log::error("--names lists every name in use; it takes no NAME");
        return exit_code::usage;
    }
    auto connection = globals.resolve();
    if (!connection) {
        log::error("{}", connection.error().message);
        return connection.error().exit_code;
    }
    return app::status(*connection, {names_, json_, names_only_});
}

} // namespace dlock::cli
