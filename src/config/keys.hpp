#pragma once

#include "util/error.hpp"
#include "util/log.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace dlock::config {

// One global setting and every place it can come from, highest precedence first: the
// command-line flag, the DLOCK_* variable, the user and system config files, a generic
// variable (REDIS_URL, below the files so that it cannot redirect a configured host), default.
struct KeySpec {
    std::string_view name;          // in config files and `dlock config`
    std::string_view flag;          // command-line option(s), for messages and docs
    std::string_view env;           // DLOCK_* variable ("" when none)
    std::string_view fallback_env;  // generic variable below the files ("" when none)
    std::string_view default_value; // "" when unset by default
    bool secret = false;            // its value is never shown
    // A usage error when `value` is not acceptable; the caller adds where it came from.
    Result<void> (*check)(std::string_view value) = nullptr;
};

// Every key, in the order `dlock config` shows them.
std::span<const KeySpec> keys();
// nullptr for an unknown key.
const KeySpec* find_key(std::string_view name);

// The URLs of a `redis` value: one, or several separated by spaces (Redlock's members), each
// checked by redis::parse_deployment.
Result<std::vector<std::string_view>> split_urls(std::string_view value);

// Typed readings of the values the checks accept.
std::optional<bool> to_bool(std::string_view value);          // true/false, yes/no, on/off, 1/0
std::optional<log::Level> to_level(std::string_view value);   // error, warn, info, debug
std::optional<log::Format> to_format(std::string_view value); // text, json

} // namespace dlock::config
