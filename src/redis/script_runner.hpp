#pragma once

#include "redis/connection.hpp"
#include "redis/embedded_scripts.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// Runs an embedded script with EVALSHA (one round trip when Redis has it cached) and falls
// back to EVAL, which also caches it, on NOSCRIPT.
Result<Reply> run_script(Connection& conn, const EmbeddedScript& script,
                         const std::vector<std::string_view>& keys,
                         const std::vector<std::string_view>& args);

} // namespace dlock::redis
