#pragma once

#include "app/run.hpp"
#include "app/target.hpp"
#include "cli/run_option_table.hpp"
#include "config/settings.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlock::cli {

// What `run`, `sem run` or `acquire` was given on the command line, unparsed.
struct RunArgs {
    RunKind kind = RunKind::run;
    std::vector<std::string> names;   // NAME...
    std::vector<std::string> command; // everything after "--"
    // The options given (rows of run_option_table()), by long name ("--wait"), with their
    // values: "" for a flag, and for an option given empty (which its check refuses).
    std::vector<std::pair<std::string, std::string>> given;
    // A NAME given after -c STRING when names came before it too, or "": sh -c habits make it an
    // argument of the command, so it is refused rather than taken as one more lock.
    std::string name_after_shell_command;

    void set(std::string_view long_name, std::string value = {});
    std::optional<std::string_view> value(std::string_view long_name) const;
    bool has(std::string_view long_name) const { return value(long_name).has_value(); }
};

// Checks and converts everything CLI11 does not: names, durations, the command, combinations of
// options. Every failure is a usage error (exit 64) whose message names the option.
Result<app::RunOptions> parse_run_options(const RunArgs& args);

// A lease should outlast two reply timeouts (--ttl at least twice --redis-timeout), or one slow
// reply to a renewal could lose it: said at a terminal or with -v. A lease shorter than one reply
// timeout that was chosen (an origin other than the default) is refused (64). Not under Redlock,
// whose members' timeouts follow the TTL.
Result<void> check_reply_timeout(Millis ttl, const app::Target& target,
                                 const config::Setting& timeout);

} // namespace dlock::cli
