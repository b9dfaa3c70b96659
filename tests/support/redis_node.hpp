#pragma once

#include "redis/protocol/connection.hpp"

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

// One redis-server process on 127.0.0.1 and a free TCP port, in its own temp dir, for the
// deployments of several servers (replicas, sentinels) that tests build. Never the system Redis,
// never a fixed port; stopped on destruction, and killed if the test process dies
// (PR_SET_PDEATHSIG), so a crashed test leaves no servers behind.
class RedisNode {
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
    ~RedisNode();
    RedisNode(const RedisNode&) = delete;
    RedisNode& operator=(const RedisNode&) = delete;

    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    pid_t pid() const { return pid_; }
    const std::string& dir() const { return dir_; }

    // A fresh connection (authenticated when the node has a password); fails the test if none.
    redis::Connection connect() const;
    // One command on a fresh connection: its reply, or the error.
    Result<redis::Reply> try_cmd(std::initializer_list<std::string_view> args) const;
    // One command on a fresh connection; fails the test on an error.
    redis::Reply cmd(std::initializer_list<std::string_view> args) const;
    // A field of INFO's answer ("role", "master_link_status"...); "" when absent.
    std::string info(std::string_view section, std::string_view field) const;

    void pause() const;  // SIGSTOP
    void resume() const; // SIGCONT
    void stop();         // SIGCONT + SIGTERM, and wait
    void crash();        // SIGKILL, and wait (kill -9 of the server)
    // Starts it again (after stop() or crash(), or stopping it first) on the same port and with
    // the same arguments; without persistence its data set is empty.
    void restart();

  private:
    RedisNode() = default;
    bool launch();

    Options options_;
    std::string dir_;
    int port_ = 0;
    pid_t pid_ = -1;
};

// A free TCP port on 127.0.0.1 (nothing listens on it at the moment of the call).
int unused_tcp_port();

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
