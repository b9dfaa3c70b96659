#include "cli/release_command.hpp"

#include "app/force_release.hpp"
#include "cli/command_support.hpp"

namespace dlock::cli {
namespace {

constexpr const char* kReleaseExitStatus = R"(
Exit status:
  0        the lock was held and is now broken (its holders stop at their next renewal)
  1        the lock was not held; nothing changed
  64       usage error (also: --force missing)
  69       Redis unreachable, or authentication failed
  70       internal error)";

} // namespace

ReleaseCommand::ReleaseCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "release", "Break lock NAME whoever holds it (ops escape hatch; needs --force)");
    app_->add_option("NAME", name_, "lock name")->required();
    app_->add_flag("-f,--force", force_,
                   "really break it: the holders' commands are stopped at their next renewal "
                   "(they exit 76), waiters are woken, and you are recorded in the history");
    app_->footer(kReleaseExitStatus);
}

int ReleaseCommand::execute(const GlobalOptions& globals) {
    if (!force_)
        return report(Error{exit_code::usage,
                            "release breaks a lock held by someone else: say so with --force (a "
                            "command run by dlock run releases its lock itself)"});
    auto connection = connection_for(globals, {name_});
    if (!connection)
        return report(connection.error());
    return app::force_release(*connection, name_);
}

} // namespace dlock::cli
