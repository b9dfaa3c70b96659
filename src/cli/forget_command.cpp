#include "cli/forget_command.hpp"

#include "app/forget.hpp"
#include "cli/exit_help.hpp"
#include "lock/keys.hpp"

namespace dlock::cli {

ForgetCommand::ForgetCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "forget", "Remove what a free NAME leaves in Redis (history, run counters, fencing "
                  "counter, once-per slot): it leaves metrics, status --watch and check");
    app_->add_option("NAME", names_, "lock names (a held one is refused and left as it is)")
        ->required();
    app_->footer(exit_status_help(HelpPage::forget));
}

Result<ForgetCommand::Plan> ForgetCommand::plan(const GlobalOptions& globals) const {
    Plan p{{}, lock::distinct(names_)};
    TRY_ASSIGN(p.target, target_for(globals, p.names));
    return p;
}

Result<int> ForgetCommand::run(const Plan& p) {
    return app::forget(*store_for(p.target), p.target, p.names);
}

} // namespace dlock::cli
