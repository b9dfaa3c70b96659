#pragma once

#include "redis/protocol/connection.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace dlock::redis {

// Calls per command from INFO commandstats, e.g. {"evalsha": 1200, "blpop": 600}.
using CommandCalls = std::map<std::string, int64_t>;

CommandCalls parse_command_stats(std::string_view info);
Result<CommandCalls> command_stats(Connection& conn);

// after - before, command by command (commands absent from `before` count from 0).
CommandCalls calls_between(const CommandCalls& before, const CommandCalls& after);

} // namespace dlock::redis
