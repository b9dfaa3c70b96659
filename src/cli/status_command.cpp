#include "cli/status_command.hpp"

#include "app/status.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/status_view.hpp"
#include "util/output.hpp"

namespace dlock::cli {

StatusCommand::StatusCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "status", "Show who holds locks, semaphores and latches (all under the prefix, or NAMEs)");
    app_->add_option("NAME", names_, "names to show (default: every name in use)");
    auto json = app_->add_flag("--json", json_, "print JSON instead of a table");
    auto names = app_->add_flag("--names", names_only_, "print only the names in use, one per line")
                     ->excludes(json);
    app_->add_flag("-l,--wide", wide_,
                   "every column: also USER, TOKEN (the fencing token), HOLDS and the age in "
                   "SINCE (the default fits 100 columns)")
        ->excludes(json)
        ->excludes(names);
    app_->footer(exit_status_help(HelpPage::status));
}

Result<app::Target> StatusCommand::plan(const GlobalOptions& globals) const {
    if (names_only_ && !names_.empty())
        return usage_error("--names lists every name in use; it takes no NAME");
    return target_for(globals, names_);
}

Result<int> StatusCommand::run(const app::Target& ready) {
    const auto store = store_for(ready);
    TRY_ASSIGN(const auto answer, app::status(*store, ready, {names_, json_, names_only_}));
    const StatusStyle style = names_only_ ? StatusStyle::names
                              : json_     ? StatusStyle::json
                              : wide_     ? StatusStyle::wide
                                          : StatusStyle::table;
    out::write(status_text(answer, ready.prefix, style));
    return answer.exit_status;
}

} // namespace dlock::cli
