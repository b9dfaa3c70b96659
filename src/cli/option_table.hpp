#pragma once

#include "config/option.hpp"
#include "util/error.hpp"

#include <string_view>
#include <vector>

namespace dlock::cli {

// Every global option, one row each (see config::Option). The rows live here rather than in
// config/ because two checks need layers above config/: Redis URLs (redis/) and the key prefix
// (lock/). Adding a global option is a row here; its flag, variable, config key, `dlock config`
// line and --help entry follow, and tests/unit/cli/option_table_test.cpp covers it.
config::Options global_option_table();

// The URLs of a `redis` value: one, or several separated by spaces (Redlock's members), each
// checked by redis::parse_deployment.
Result<std::vector<std::string_view>> split_urls(std::string_view value);

} // namespace dlock::cli
