#include "cli/release_command.hpp"

#include "app/acquire.hpp"
#include "app/compat_inspect.hpp"
#include "app/force_release.hpp"
#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/exit_help.hpp"
#include "cli/numbers.hpp"
#include "process/hold_channel.hpp"

#include <cstdlib>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

constexpr const char* kWhatBreaks = R"(
Without --permit/--all-permits it breaks the lock NAME; with them, permits of the semaphore
NAME (a lock and a semaphore of the same name are separate objects).
Without --force and NAME it releases the hold of `dlock acquire` ($DLOCK_HOLD or --hold).
)";

// The holds `dlock release` without NAME releases: --hold, else those of $DLOCK_HOLD.
Result<std::vector<std::string>> holds_to_release(const CLI::App& app, const std::string& given) {
    const char* from_environment = getenv("DLOCK_HOLD");
    const bool flag = app.count("--hold") > 0;
    const auto holds = flag ? std::vector<std::string>{given} : app::listed_holds(from_environment);
    if (holds.empty())
        return usage_error("release: no hold given: pass --hold ID, or eval the output of dlock "
                           "acquire so that DLOCK_HOLD is set (or release --force NAME to break "
                           "a lock)");
    for (const auto& hold : holds)
        if (!process::valid_hold_id(hold))
            return usage_error(fmt::format("{}: not a hold id (32 hex digits, as dlock acquire "
                                           "prints in DLOCK_HOLD{})",
                                           flag ? "--hold" : "DLOCK_HOLD",
                                           flag ? "" : ", several separated by spaces"));
    return holds;
}

} // namespace

ReleaseCommand::ReleaseCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("release", "Release the hold of dlock acquire; with --force, "
                                            "break lock NAME or permits of semaphore NAME, "
                                            "whoever holds them (ops escape hatch)");
    auto* name = app_->add_option("NAME", name_, "lock or semaphore name (with --force)");
    app_->add_flag("-f,--force", force_,
                   "really break it: the holders' commands are stopped at their next renewal "
                   "(they exit 76), waiters are woken, and you are recorded in the history");
    auto* permit = app_->add_option("--permit", permit_,
                                    "break only this permit of semaphore NAME (the id `dlock sem "
                                    "status NAME` shows, the holder's $DLOCK_PERMIT)")
                       ->option_text("ID");
    auto* all =
        app_->add_flag("--all-permits", all_permits_, "break every permit of semaphore NAME")
            ->excludes(permit);
    app_->add_option("--compat", compat_,
                     "with --force: break the other library's lock NAME (its exact Redis key) in "
                     "FORMAT, redisson or setnx; Redisson's waiters get the unlock message")
        ->option_text("FORMAT")
        ->excludes(permit)
        ->excludes(all);
    app_->add_option("--hold", hold_,
                     "without NAME: release this hold of dlock acquire (default: every hold "
                     "in $DLOCK_HOLD that this script took)")
        ->option_text("ID")
        ->excludes(name);
    app_->add_option("--status", status_,
                     "without NAME: how the script ended (e.g. $? in trap '... --status $?' "
                     "EXIT), counted by the run counters: 0 ok, else failed")
        ->option_text("N");
    app_->footer(kWhatBreaks + exit_status_help(HelpPage::release));
}

Result<ReleaseCommand::Plan> ReleaseCommand::plan(const GlobalOptions& globals) const {
    if (app_->count("--compat") > 0 && (!force_ || name_.empty()))
        return usage_error("--compat breaks another library's lock: give it with --force NAME");
    if (!force_ && name_.empty() && app_->count("--permit") == 0 && !all_permits_) {
        Plan p;
        TRY_ASSIGN(p.holds, holds_to_release(*app_, hold_));
        p.hold_inherited = app_->count("--hold") == 0;
        if (app_->count("--status") > 0) {
            TRY_ASSIGN(const int64_t status, parse_integer(status_, 0, 255, "--status"));
            p.status = static_cast<int>(status);
        }
        return p;
    }
    if (app_->count("--status") > 0)
        return usage_error("--status says how the script of a dlock acquire hold ended: give it "
                           "without --force and NAME");
    if (app_->count("--hold") > 0)
        return usage_error("--hold releases a hold of dlock acquire: give it without --force, "
                           "NAME or --permit");
    if (name_.empty())
        return usage_error("release --force needs the NAME of the lock or semaphore to break");
    if (!force_)
        return usage_error("release NAME breaks a lock or permit held by someone else: say so "
                           "with --force NAME; a hold of dlock acquire is released with dlock "
                           "release alone, without NAME (a command run by dlock run releases its "
                           "lock itself)");
    Plan p{{}, {name_, "", all_permits_}, {}, false, std::nullopt, std::nullopt};
    if (app_->count("--compat") > 0) {
        TRY_ASSIGN(p.compat, parse_compat(compat_));
        TRY_ASSIGN(p.target, compat_target_for(globals, *p.compat, name_));
        return p;
    }
    if (app_->count("--permit") > 0) {
        TRY_ASSIGN(p.options.permit, app::parse_permit_id(permit_));
    }
    TRY_ASSIGN(p.target, target_for(globals, {name_}));
    return p;
}

Result<int> ReleaseCommand::run(const Plan& p) {
    if (!p.holds.empty())
        return app::release_holds(p.holds, p.hold_inherited, p.status);
    if (p.compat)
        return app::compat_force_release(*store_for(p.target), p.target, *p.compat, p.options.name);
    return app::force_release(*store_for(p.target), p.target, p.options);
}

} // namespace dlock::cli
