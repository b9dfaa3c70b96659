#include "cli/config_command.hpp"

#include "app/show_config.hpp"
#include "cli/exit_help.hpp"

namespace dlock::cli {

ConfigCommand::ConfigCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "config", "Show the effective global settings and where each came from (flag, "
                  "environment, FILE:LINE, default); secrets are hidden");
    app_->footer("\nConfig files (key = value, # comments): $XDG_CONFIG_HOME/dlock/config or "
                 "~/.config/dlock/config\n(or $DLOCK_CONFIG), then /etc/dlock.conf (or "
                 "$DLOCK_SYSTEM_CONFIG). See man dlock.\n" +
                 exit_status_help(HelpPage::config));
}

Result<int> ConfigCommand::execute(const GlobalOptions& globals) {
    return app::show_config(globals.settings());
}

} // namespace dlock::cli
