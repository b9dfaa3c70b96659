#pragma once

#include "redis/topology/deployment.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace dlock::app {

// What every subcommand works on: a Redis deployment (how to reach it) and the prefix of dlock's
// keys there, as the global options and the settings resolve them (cli/global_options.hpp).
struct Target {
    redis::Deployment redis; // under Redlock, the first member
    // Redlock: every member of the quorum (an odd number, 3 or more); empty otherwise.
    std::vector<redis::Deployment> quorum;
    std::string prefix = "dlock";
};

// A usage error for `what` (a subcommand or option) under Redlock, which offers exclusive
// locks only; nothing when the target is one deployment.
Result<void> refuse_under_redlock(const Target& target, std::string_view what);

} // namespace dlock::app
