#pragma once

#include "redis/deployment.hpp"

#include <string>

namespace dlock::app {

// What every subcommand works on: a Redis deployment (how to reach it) and the prefix of dlock's
// keys there, as the global options and the settings resolve them (cli/global_options.hpp).
struct Target {
    redis::Deployment redis;
    std::string prefix = "dlock";
};

} // namespace dlock::app
