#include "cli/sem_command.hpp"

#include "app/semaphore.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/status_view.hpp"
#include "util/output.hpp"

namespace dlock::cli {
namespace {

CLI::App& add_sem(CLI::App& parent) {
    auto* sem = parent.add_subcommand("sem", "Semaphores: at most N holders of NAME at once");
    sem->require_subcommand(1);
    sem->footer(exit_status_help(HelpPage::sem_run, "Exit status of sem run") + "\n" +
                exit_status_help(HelpPage::sem_status, "Exit status of sem status"));
    return *sem;
}

} // namespace

SemCommand::SemCommand(CLI::App& parent) : app_(&add_sem(parent)), run_(*app_, RunKind::semaphore) {
    status_ = app_->add_subcommand("status", "Show semaphore NAME: limit, holders, waiters");
    status_->add_option("NAME", name_, "semaphore name")->required();
    status_->add_flag("--json", json_, "print JSON instead of a table");
    status_->footer(exit_status_help(HelpPage::sem_status));
}

Result<app::Target> SemCommand::status_target(const GlobalOptions& globals,
                                              const std::vector<std::string>& command) const {
    if (!command.empty())
        return usage_error("unexpected '--' (only sem run takes a command)");
    return target_for(globals, {name_});
}

Result<void> SemCommand::check(const GlobalOptions& globals,
                               const std::vector<std::string>& command) const {
    if (runs_command())
        return run_.check(globals, command);
    return status_target(globals, command).map([](const app::Target&) {});
}

Result<int> SemCommand::execute(const GlobalOptions& globals,
                                const std::vector<std::string>& command) {
    if (runs_command())
        return run_.execute(globals, command);
    TRY_ASSIGN(const auto target, status_target(globals, command));
    const auto store = store_for(target);
    TRY_ASSIGN(const auto answer, app::semaphore_status(*store, target, {name_, json_}));
    out::write(json_ ? permits_json(answer.semaphore) + "\n" : permits_table(answer.semaphore));
    return answer.exit_status;
}

} // namespace dlock::cli
