#pragma once

#include "support/redis_process.hpp"

#include <memory>
#include <string>
#include <vector>

namespace dlock::test {

// A redis-server reached over TCP only, for the deployments of several servers (replicas,
// sentinels) that tests build.
class RedisNode : public RedisProcess {
  public:
    struct Options {
        // Extra command-line arguments ("--replicaof", "127.0.0.1", "6380", ...).
        std::vector<std::string> args;
        // The server's requirepass (a sentinel's too): the tests' connections use it.
        std::string password;
        // A sentinel: `config` (its port, bind, dir and logfile are added) is written to
        // sentinel.conf in the node's dir, which Sentinel rewrites, and run with --sentinel.
        bool sentinel = false;
        std::string config;
    };

    // nullptr when redis-server is not installed (see REQUIRE_REDIS). Returns once the server
    // answers PING; fails the test when it cannot start.
    static std::unique_ptr<RedisNode> start(Options options);

  private:
    explicit RedisNode(Options options) : options_(std::move(options)) {}
    std::vector<std::string> arguments() const override;
    redis::ConnectOptions connect_options() const override;

    Options options_;
};

// A TCP port on 127.0.0.1 that takes connections (the kernel completes them) and never answers:
// a server on a stopped host. contacted() tells whether anyone connected since.
class SilentListener {
  public:
    SilentListener();
    ~SilentListener();
    SilentListener(const SilentListener&) = delete;
    SilentListener& operator=(const SilentListener&) = delete;

    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    bool contacted() const;

  private:
    int fd_ = -1;
    int port_ = 0;
};

} // namespace dlock::test

// Starts a node (RedisNode::start's arguments) into `var`, as REQUIRE_REDIS does a server.
#define REQUIRE_REDIS_NODE(var, ...)                                                               \
    auto var = ::dlock::test::RedisNode::start(__VA_ARGS__);                                       \
    DLOCK_SKIP_UNLESS_STARTED(var, "redis-server", "Redis")
