#include "cli/release_command.hpp"

#include "app/force_release.hpp"
#include "cli/command_support.hpp"

namespace dlock::cli {
namespace {

constexpr const char* kReleaseExitStatus = R"(
Without --permit/--all-permits it breaks the lock NAME; with them, permits of the semaphore
NAME (a lock and a semaphore of the same name are separate objects).

Exit status:
  0        something was held and is now broken (its holders stop at their next renewal)
  1        nothing was held (the lock was free, the permit gone); nothing changed
  64       usage error (also: --force missing, a malformed permit id)
  69       Redis unreachable, or authentication failed
  70       internal error)";

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
    app_->footer(kReleaseExitStatus);
}

int ReleaseCommand::execute(const GlobalOptions& globals) {
    if (!force_)
        return report(Error{exit_code::usage,
                            "release breaks a lock or permit held by someone else: say so with "
                            "--force (a command run by dlock run releases its lock itself)"});
    app::ForceReleaseOptions options{name_, "", all_permits_};
    if (app_->count("--permit") > 0) {
        auto permit = app::parse_permit_id(permit_);
        if (!permit)
            return report(permit.error());
        options.permit = std::move(*permit);
    }
    auto connection = target_for(globals, {name_});
    if (!connection)
        return report(connection.error());
    return app::force_release(*connection, options);
}

} // namespace dlock::cli
