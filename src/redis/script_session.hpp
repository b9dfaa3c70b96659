#pragma once

#include "redis/connection.hpp"
#include "redis/script_runner.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace dlock::redis {

// One Redis connection for a backend: opened on first use (or by connect()), reopened after an
// I/O error, running the embedded lua/ scripts and the waiters' BLPOP.
class ScriptSession {
  public:
    explicit ScriptSession(ConnectOptions options) : options_(std::move(options)) {}
    explicit ScriptSession(Connection conn) : options_(conn.options()), conn_(std::move(conn)) {}

    // Opens the connection now, so "Redis unreachable" is reported before anything else.
    Result<void> connect();
    Result<Reply> run(std::string_view script_name, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args);
    Result<bool> blpop(std::string_view key, Millis timeout);
    // The connection, reopened if it broke.
    Result<Connection*> connection();

  private:
    ConnectOptions options_;
    std::optional<Connection> conn_;
};

} // namespace dlock::redis
