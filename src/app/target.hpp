#pragma once

#include "redis/topology/deployment.hpp"

#include <string>
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

} // namespace dlock::app
