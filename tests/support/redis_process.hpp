#pragma once

#include "redis/protocol/connection.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

// A redis-server process of a test, on 127.0.0.1 and a free TCP port, in a temp dir of its own
// (removed with it). Never the system Redis, never a fixed port; stopped on destruction, and
// killed if the test process dies (PR_SET_PDEATHSIG), so a crashed test leaves no servers
// behind. RedisServer and RedisNode say how it is started and how the tests reach it.
class RedisProcess {
  public:
    virtual ~RedisProcess();
    RedisProcess(const RedisProcess&) = delete;
    RedisProcess& operator=(const RedisProcess&) = delete;

    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    // The server's process, e.g. to SIGSTOP it (stop() resumes it before ending it).
    pid_t pid() const { return pid_; }
    const std::string& dir() const { return dir_; }

    // A fresh connection (authenticated when the server has a password); fails the test if none.
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

  protected:
    RedisProcess() = default;
    // Makes the temp dir, "<prefix>XXXXXX".
    void make_dir(const char* prefix);
    // Launches it on one free port after another until it answers PING; fails the test when
    // none took.
    void launch_on_free_port();

    // The arguments of redis-server (its path left out) to run on port().
    virtual std::vector<std::string> arguments() const = 0;
    // How the tests reach it.
    virtual redis::ConnectOptions connect_options() const = 0;

  private:
    bool launch();
    void end(int signo);

    std::string dir_;
    int port_ = 0;
    pid_t pid_ = -1;
};

// True when the Redis-backed tests must not be skipped (CI is set).
bool redis_required();

// A TCP port on 127.0.0.1 free at the moment of the call.
int free_tcp_port();

// Whether nothing is bound to `port` of 127.0.0.1 at the moment of the call.
bool tcp_port_free(int port);

// The redis-server found in PATH (or /usr/sbin, /usr/local/bin); nullopt when not installed.
std::optional<std::string> redis_server_binary();

} // namespace dlock::test

// Skips the test with a message when `started` is false because `missing` ("redis-server") is not
// installed, except under CI, where it fails: there the `kind` ("Redis") tests must run.
#define DLOCK_SKIP_UNLESS_STARTED(started, missing, kind)                                          \
    if (!(started)) {                                                                              \
        if (::dlock::test::redis_required())                                                       \
            FAIL(missing " not found, and CI is set: " kind " tests must run");                    \
        WARN(missing " not found: skipping this " kind " test");                                   \
        return;                                                                                    \
    }
