#pragma once

#include "redis/endpoint.hpp"
#include "redis/reply.hpp"
#include "util/error.hpp"

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace dlock::redis {

// One synchronous hiredis connection. This file pair is the only place that talks to hiredis
// (besides reply.cpp reading replies).
class Connection {
  public:
    // Connects, then authenticates and selects the database in one round trip when needed.
    // Failures are exit_code::unavailable and name the endpoint, never the password.
    static Result<Connection> open(const ConnectOptions& options);

    // Runs one command. I/O errors and timeouts become transient `unavailable` errors (the
    // connection is then broken and must be reopened); error replies become `internal` errors
    // carrying the server's message, except authentication errors which are `unavailable`.
    // A nil reply is returned as a Reply for the caller to interpret.
    Result<Reply> command(std::span<const std::string_view> args);
    Result<Reply> command(std::initializer_list<std::string_view> args) {
        return command(std::span<const std::string_view>(args.begin(), args.size()));
    }
    // Sends all `commands`, then reads their replies: one round trip. An I/O error fails the
    // whole batch (the connection is then broken); each reply is checked as by command().
    Result<std::vector<Result<Reply>>>
    pipeline(const std::vector<std::vector<std::string>>& commands);
    // For a blocking command (BLPOP ... timeout): the socket timeout is `block` longer.
    Result<Reply> blocking_command(std::initializer_list<std::string_view> args, Millis block);

    // Pops one element of list `key`, waiting up to `timeout`: true when one was popped.
    // A timeout under 1 ms polls with LPOP (BLPOP 0 would block forever).
    Result<bool> blpop(std::string_view key, Millis timeout);

    bool broken() const { return broken_; }
    const ConnectOptions& options() const { return options_; }

  private:
    struct Free {
        void operator()(redisContext* c) const;
    };
    Connection(std::unique_ptr<redisContext, Free> ctx, ConnectOptions options);
    Error io_error(std::string_view what) const;
    Result<Reply> checked(void* raw_reply, std::string_view command_name);

    std::unique_ptr<redisContext, Free> ctx_;
    ConnectOptions options_;
    bool broken_ = false;
};

} // namespace dlock::redis
