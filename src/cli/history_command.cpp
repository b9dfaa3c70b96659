#include "cli/history_command.hpp"

#include "app/history.hpp"
#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/exit_help.hpp"
#include "cli/numbers.hpp"

#include <fmt/format.h>

namespace dlock::cli {

HistoryCommand::HistoryCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "history", "Show what happened to NAME: acquisitions, releases, skips, lost leases, "
                   "forced releases (newest first)");
    app_->add_option("NAME", name_, "lock name")->required();
    count_option_ =
        app_->add_option("-n,--count", count_,
                         fmt::format("show the newest COUNT entries (default {}, at most {})",
                                     app::kDefaultHistoryCount, app::kMaxHistoryCount))
            ->option_text("COUNT");
    app_->add_flag("--json", json_, "print a JSON array instead of a table");
    app_->add_option("--compat", compat_,
                     "NAME is the other library's key of `run --compat FORMAT NAME` (redisson or "
                     "setnx): show the dlock side's runs on it")
        ->option_text("FORMAT");
    app_->footer(exit_status_help(HelpPage::history));
}

Result<HistoryCommand::Plan> HistoryCommand::plan(const GlobalOptions& globals) const {
    Plan p{{}, {name_, app::kDefaultHistoryCount, json_}};
    if (count_option_->count() > 0) {
        TRY_ASSIGN(p.options.count, parse_integer(count_, 1, app::kMaxHistoryCount, "--count"));
    }
    if (app_->count("--compat") > 0) {
        TRY_ASSIGN(const auto format, parse_compat(compat_));
        TRY_ASSIGN(p.target, compat_target_for(globals, format, name_));
        return p;
    }
    TRY_ASSIGN(p.target, target_for(globals, {name_}));
    return p;
}

Result<int> HistoryCommand::run(const Plan& p) {
    return app::history(*store_for(p.target), p.target, p.options);
}

} // namespace dlock::cli
