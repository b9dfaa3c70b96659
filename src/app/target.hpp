#pragma once

#include "redis/endpoint.hpp"

#include <string>

namespace dlock::app {

// What every subcommand works on: a Redis server (how to reach it) and the prefix of dlock's
// keys there, as the global options and the settings resolve them (cli/global_options.hpp).
struct Target {
    redis::ConnectOptions redis;
    std::string prefix = "dlock";
};

} // namespace dlock::app
