#pragma once

#include "app/run.hpp"
#include "app/target.hpp"
#include "lock/compat.hpp"
#include "util/error.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// `--compat FORMAT` of `run` and `acquire`, kept apart from the other run options: registered,
// parsed and checked here.

// Registers --compat on `app`, its value stored in `value`.
CLI::Option* add_compat_option(CLI::App& app, std::string& value);

// The format spelled `text` ("redisson", "setnx"); else a usage error listing them.
Result<lock::CompatFormat> parse_compat(std::string_view text);

// The NAMEs of a run: under --compat the other side's keys, as given (lock::validate_compat_name),
// else nullopt: the caller validates them as dlock names.
std::optional<Result<std::vector<std::string>>>
compat_names(const std::optional<std::string>& compat, const std::vector<std::string>& names);

// Sets options.compat from `compat` and refuses what the formats cannot express: several names,
// `sem run`, -s, --once-per. Usage errors (64), before anything is sent.
Result<void> apply_compat(const std::optional<std::string>& compat, bool semaphore,
                          app::RunOptions& options);

// Refuses --compat over a Redlock quorum (several --redis): no format here has a quorum form.
Result<void> check_compat_target(const app::RunOptions& options, const app::Target& target);

} // namespace dlock::cli
