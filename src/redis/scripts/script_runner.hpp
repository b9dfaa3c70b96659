#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/topology/deployment.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// The keys and arguments of one call of a script.
struct ScriptCall {
    std::vector<std::string_view> keys;
    std::vector<std::string_view> args;
};

// How a script is sent besides its call.
struct ScriptOptions {
    // ASKING first: the key is being migrated to this Cluster node (an ASK redirect).
    bool asking = false;
    // WAIT for this many replicas after the script, in the same round trip (--min-replicas);
    // nullptr or 0 replicas: no WAIT.
    const Replication* wait = nullptr;
};

// The replies of a batch of calls, in order, and when a WAIT followed them, its answer: how
// many replicas acknowledged the writes (or why WAIT failed).
struct ScriptReplies {
    std::vector<Result<Reply>> replies;
    std::optional<Result<int64_t>> acks;
    Replication replication{}; // what WAIT was asked for, when it was sent
};

// Runs `script` once per call, pipelined: EVALSHA, one round trip when Redis has the script
// cached; the calls refused with NOSCRIPT are sent again after SCRIPT LOAD (also caching it),
// in a second round trip. An I/O error fails every call. Error replies come back as they are
// (internal errors carrying the server's message: MOVED, TRYAGAIN... for the caller to act on),
// but LOADING, BUSY and NOREPLICAS (Redis loading its data set, stuck in a slow script, or short
// of its min-replicas-to-write) are transient `unavailable` errors: they pass.
ScriptReplies run_script_pipelined(Connection& conn, const EmbeddedScript& script,
                                   std::span<const ScriptCall> calls, ScriptOptions options = {});

// One call, as run_script_pipelined.
Result<Reply> run_script(Connection& conn, const EmbeddedScript& script,
                         const std::vector<std::string_view>& keys,
                         const std::vector<std::string_view>& args);

// LOADING, BUSY and NOREPLICAS replies (Error::server) become transient `unavailable` errors
// (see run_script_pipelined).
Error classify_server_error(Error error);

// The error of a script, as the user sees it: "script NAME.lua failed: ...".
Error script_error(Error error, const EmbeddedScript& script);

} // namespace dlock::redis
