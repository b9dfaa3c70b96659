#pragma once

#include "app/run.hpp"
#include "app/target.hpp"
#include "cli/global_options.hpp"
#include "cli/run_option_table.hpp"
#include "lock/compat.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// `--compat FORMAT` of `run`: its row's check, and what it changes in the rest of the run's
// options (cli/run_option_table.cpp, cli/run_options.cpp).

// The row's check: the format spelled `text` ("redisson", "setnx") into options.compat; else a
// usage error listing them.
Result<void> set_compat(std::string_view text, app::RunOptions& options);

// The NAMEs of a --compat run: the other side's keys, as given (lock::validate_compat_name).
Result<std::vector<std::string>> compat_names(const std::vector<std::string>& names);

// What the formats cannot express, refused once every option is read: several names, `sem run`,
// -s, --once-per. Usage errors (64), before anything is sent.
Result<void> check_compat(RunKind kind, const app::RunOptions& options);

// The format spelled `text` ("redisson", "setnx"); else a usage error listing them.
Result<lock::CompatFormat> parse_compat(std::string_view text);
// The target of `status`, `history` and `release --force` under --compat: NAME is the other
// side's key (lock::validate_compat_name), on one deployment (no format has a quorum form).
// Usage errors (64), before anything is sent.
Result<app::Target> compat_target_for(const GlobalOptions& globals, lock::CompatFormat format,
                                      const std::string& name);
// Refuses --compat over a Redlock quorum (several --redis): no format here has a quorum form.
Result<void> check_compat_target(const app::RunOptions& options, const app::Target& target);

} // namespace dlock::cli
