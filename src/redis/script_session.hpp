#pragma once

#include "redis/connection.hpp"
#include "redis/script_runner.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace dlock::redis {

// One Redis connection for a backend: opened on first use (or by connect()), reopened after an
// I/O error, running the embedded lua/ scripts and the waiters' BLPOP.
// Failing to reach a server never reached before is not transient: Redis is down (or the
// address is wrong), and that is reported at once instead of retried. Once reached, a
// failure to reconnect is transient (a restart, a reset connection).
class ScriptSession {
  public:
    explicit ScriptSession(ConnectOptions options) : options_(std::move(options)) {}

    // Opens the connection now, so "Redis unreachable" is reported before anything else.
    Result<void> connect();
    Result<Reply> run(const EmbeddedScript& script, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args);
    // Runs the script once per call in one round trip (see run_script_pipelined).
    std::vector<Result<Reply>> run_each(const EmbeddedScript& script,
                                        std::span<const ScriptCall> calls);
    Result<bool> blpop(std::string_view key, Millis timeout);
    // The connection, reopened if it broke.
    Result<Connection*> connection();

  private:
    ConnectOptions options_;
    std::optional<Connection> conn_;
    bool reached_ = false; // a connection was opened once
};

} // namespace dlock::redis
