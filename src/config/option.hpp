#pragma once

#include "util/error.hpp"
#include "util/log.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dlock::config {

// A usage error when `value` is not acceptable; the caller adds where the value came from.
using Check = Result<void> (*)(std::string_view value);
// Any value will do (paths, user names: checked when used).
Result<void> check_anything(std::string_view value);

// How a setting is given on the command line.
enum class Form {
    none,      // not at all: environment and config files only (a secret in argv shows in `ps`)
    value,     // `flag VALUE`
    values,    // `flag VALUE`, repeatable: the values joined by spaces
    toggle,    // `flag` sets "true", `off_flag` (if any) "false"
    verbosity, // `flag` counted (once "info", more "debug"), `off_flag` "error"
};

// The names an option had before. Each is refused with a message naming the new one: ignored,
// an old name would quietly leave the default in force; accepted, it would keep the trap the
// option was renamed to close (flock users read a global --timeout as the wait for the lock).
struct FormerNames {
    std::string_view key{};  // config file key
    std::string_view flag{}; // before the subcommand
    std::string_view env{};
    std::string_view note{}; // added to each refusal, in parentheses: what the option is, and so on
};

// One global setting: everything the command line, the environment, the config files,
// `dlock config`, --help and the man page know of it. A setting comes from, highest precedence
// first: the flag, the DLOCK_* variable, the user and system config files, a generic variable
// (REDIS_URL, below the files so that it cannot redirect a configured host), the default.
struct Option {
    std::string_view name{}; // the config file key, as `dlock config` shows it
    Form form = Form::none;
    std::string_view flag{};    // CLI11 names ("--prefix", "-v,--verbose"); "" with Form::none
    std::string_view metavar{}; // Form::value and Form::values
    // The --help text of `flag`; "{default}", "{env}" and "{fallback_env}" are replaced.
    std::string_view help{};
    std::string_view off_flag{}; // Form::toggle and Form::verbosity: the flag that turns it down
    std::string_view off_help{};
    std::string_view env{};           // DLOCK_* variable ("" when none)
    std::string_view fallback_env{};  // generic variable below the files ("" when none)
    std::string_view default_value{}; // "" when unset by default
    bool secret = false;              // its value is never shown, nor read from a public file
    bool urls = false;                // Redis URLs, which may hold a password: shown redacted
    Check check = check_anything;
    // --help lists this flag after those of the named option instead of in table order.
    std::string_view help_after{};
    // The --help heading this flag is listed under, after the subcommands ("TLS options"); ""
    // for the common "Options" at the top.
    std::string_view group{};
    FormerNames former{};
};

// A table of options, in the order `dlock config` shows them.
using Options = std::span<const Option>;

// nullptr for an unknown name.
const Option* find(Options options, std::string_view name);

// The refusal of a former name: "DLOCK_TIMEOUT was renamed DLOCK_REDIS_TIMEOUT (...)", for the
// option of `options` whose FormerNames has `field` equal to `name`; nullopt when none has.
std::optional<std::string> renamed(Options options, std::string_view FormerNames::*field,
                                   std::string_view name);

// Checks of values that need nothing but config/ and util/.
Result<void> check_timeout(std::string_view value);  // a duration greater than zero
Result<void> check_replicas(std::string_view value); // auto, or 0 to kMaxReplicas
Result<void> check_bool(std::string_view value);
Result<void> check_level(std::string_view value);
Result<void> check_format(std::string_view value);

inline constexpr int kMaxReplicas = 1000;

// Typed readings of the values the checks accept.
std::optional<bool> to_bool(std::string_view value);          // true/false, yes/no, on/off, 1/0
std::optional<log::Level> to_level(std::string_view value);   // error, warn, info, debug
std::optional<log::Format> to_format(std::string_view value); // text, json

} // namespace dlock::config
