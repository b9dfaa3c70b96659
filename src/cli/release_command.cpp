#include "cli/release_command.hpp"

#include "app/force_release.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"

namespace dlock::cli {
namespace {

constexpr const char* kWhatBreaks = R"(
Without --permit/--all-permits it breaks the lock NAME; with them, permits of the semaphore
NAME (a lock and a semaphore of the same name are separate objects).
)";

} // namespace

ReleaseCommand::ReleaseCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("release", "Break lock NAME, or permits of semaphore NAME, "
                                            "whoever holds them (ops escape hatch; needs --force)");
    app_->add_option("NAME", name_, "lock or semaphore name")->required();
    app_->add_flag("-f,--force", force_,
                   "really break it: the holders' commands are stopped at their next renewal "
                   "(they exit 76), waiters are woken, and you are recorded in the history");
    auto* permit = app_->add_option("--permit", permit_,
                                    "break only this permit of semaphore NAME (the id `dlock sem "
                                    "status NAME` shows, the holder's $DLOCK_PERMIT)")
                       ->option_text("ID");
    app_->add_flag("--all-permits", all_permits_, "break every permit of semaphore NAME")
        ->excludes(permit);
    app_->footer(kWhatBreaks + exit_status_help(HelpPage::release));
}

Result<ReleaseCommand::Plan> ReleaseCommand::plan(const GlobalOptions& globals) const {
    if (!force_)
        return usage_error("release breaks a lock or permit held by someone else: say so with "
                           "--force (a command run by dlock run releases its lock itself)");
    Plan p{{}, {name_, "", all_permits_}};
    if (app_->count("--permit") > 0) {
        TRY_ASSIGN(p.options.permit, app::parse_permit_id(permit_));
    }
    TRY_ASSIGN(p.target, target_for(globals, {name_}));
    return p;
}

Result<int> ReleaseCommand::run(const Plan& p) {
    return app::force_release(*store_for(p.target), p.target, p.options);
}

} // namespace dlock::cli
