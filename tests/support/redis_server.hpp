#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/scripts/script_session.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

// A private redis-server for one test: its own temp dir, unix socket and free TCP port,
// no persistence. Never the system Redis, never a fixed port. Stopped on destruction.
class RedisServer {
  public:
    // More command-line arguments for redis-server, given the free port it was chosen (they
    // come last, so they override: "--port 0 --tls-port P" makes a TLS-only server).
    using ExtraArgs = std::function<std::vector<std::string>(int port)>;

    // nullptr when redis-server is not installed (see REQUIRE_REDIS).
    static std::unique_ptr<RedisServer> start(ExtraArgs extra = {});
    ~RedisServer();

    std::string url() const { return "unix://" + socket_; } // preferred
    std::string tcp_url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    const std::string& socket_path() const { return socket_; }
    int port() const { return port_; }
    // The server's process, e.g. to SIGSTOP it (SIGCONT it again before the test ends: stop()
    // waits for it to exit).
    pid_t pid() const { return pid_; }
    const std::string& dir() const { return dir_; }

    // A fresh connection to this server (fails the test if it cannot connect).
    redis::Connection connect() const;
    // A session on this server (connects on first use), as dlock's commands use one.
    redis::ScriptSession session() const;
    // Runs one command and returns the reply (fails the test on error).
    redis::Reply cmd(std::initializer_list<std::string_view> args) const;

    void stop();    // SIGTERM and wait; the socket disappears
    void restart(); // same socket and port

  private:
    RedisServer() = default;
    bool launch();

    ExtraArgs extra_;
    std::string dir_;
    std::string socket_;
    int port_ = 0;
    pid_t pid_ = -1;
};

// True when the Redis-backed tests must not be skipped (CI is set).
bool redis_required();

// A TCP port on 127.0.0.1 free at the moment of the call.
int free_tcp_port();

// The redis-server found in PATH (or /usr/sbin, /usr/local/bin); nullopt when not installed.
std::optional<std::string> redis_server_binary();

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
    if (!var) {                                                                                    \
        if (::dlock::test::redis_required())                                                       \
            FAIL("redis-server not found, and CI is set: Redis tests must run");                   \
        WARN("redis-server not found: skipping this Redis test");                                  \
        return;                                                                                    \
    }
