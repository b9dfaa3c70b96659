#pragma once

#include "redis/connection.hpp"
#include "redis/embedded_scripts.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// Runs an embedded script with EVALSHA (one round trip when Redis has it cached) and falls
// back to EVAL, which also caches it, on NOSCRIPT.
// A LOADING or BUSY reply (Redis loading its data after a restart, or stuck in a slow script)
// is a transient `unavailable` error, like a reset connection: it passes, so callers that
// retry transient errors retry it.
Result<Reply> run_script(Connection& conn, const EmbeddedScript& script,
                         const std::vector<std::string_view>& keys,
                         const std::vector<std::string_view>& args);

// The keys and arguments of one call of a script.
struct ScriptCall {
    std::vector<std::string_view> keys;
    std::vector<std::string_view> args;
};

// Runs `script` once per call, pipelined: one round trip (two when Redis must load the script
// first). One result per call, in order, each as from run_script; an I/O error fails them all.
std::vector<Result<Reply>> run_script_pipelined(Connection& conn, const EmbeddedScript& script,
                                                std::span<const ScriptCall> calls);

// LOADING and BUSY replies become transient `unavailable` errors (see run_script).
Error classify_server_error(Error error);

} // namespace dlock::redis
