#pragma once

#include "cli/global_options.hpp"

#include <string>
#include <vector>

namespace dlock::cli {

// Validates the lock `names`, then resolves the global options; both before anything talks to
// Redis, so bad input changes nothing.
Result<app::Target> target_for(const GlobalOptions& globals, const std::vector<std::string>& names);

} // namespace dlock::cli
