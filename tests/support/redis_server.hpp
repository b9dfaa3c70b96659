#pragma once

#include "redis/scripts/script_session.hpp"
#include "support/redis_process.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlock::test {

// A private redis-server for one test, reached through its unix socket (and its TCP port), no
// persistence.
class RedisServer : public RedisProcess {
  public:
    // More command-line arguments for redis-server, given the free port it was chosen (they
    // come last, so they override: "--port 0 --tls-port P" makes a TLS-only server).
    using ExtraArgs = std::function<std::vector<std::string>(int port)>;

    // nullptr when redis-server is not installed (see REQUIRE_REDIS).
    static std::unique_ptr<RedisServer> start(ExtraArgs extra = {});

    std::string url() const { return "unix://" + socket_; } // preferred
    std::string tcp_url() const { return "redis://127.0.0.1:" + std::to_string(port()); }
    const std::string& socket_path() const { return socket_; }

    // A session on this server (connects on first use), as dlock's commands use one.
    redis::ScriptSession session() const;

  private:
    explicit RedisServer(ExtraArgs extra) : extra_(std::move(extra)) {}
    std::vector<std::string> arguments() const override;
    redis::ConnectOptions connect_options() const override;

    ExtraArgs extra_;
    std::string socket_;
};

// Whether `key` exists on `server`.
inline bool exists(const RedisServer& server, const std::string& key) {
    return server.cmd({"EXISTS", key}).integer() == 1;
}

// A field of a hash, "" when the key or the field is missing.
inline std::string hget(const RedisServer& server, const std::string& key,
                        const std::string& field) {
    return std::string(server.cmd({"HGET", key, field}).str());
}

} // namespace dlock::test

// Starts a private server into `var`; without redis-server the test is skipped with a message,
// except under CI, where it fails.
#define REQUIRE_REDIS(var)                                                                         \
    auto var = ::dlock::test::RedisServer::start();                                                \
    DLOCK_SKIP_UNLESS_STARTED(var, "redis-server", "Redis")
