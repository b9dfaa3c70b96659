#pragma once

#include "cli/global_options.hpp"
#include "lock/store.hpp"

#include <memory>
#include <string>
#include <vector>

namespace dlock::cli {

// Validates the lock `names`, then resolves the global options; both before anything talks to
// Redis, so bad input changes nothing.
Result<app::Target> target_for(const GlobalOptions& globals, const std::vector<std::string>& names);

// The store of `target` (one deployment or a Redlock quorum), handed to the use case: it
// connects on first use.
std::unique_ptr<lock::Store> store_for(const app::Target& target);

} // namespace dlock::cli
