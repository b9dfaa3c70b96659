#pragma once

#include "redis/protocol/reply.hpp"
#include "redis/protocol/reply_reader.hpp"
#include "redis/transport/endpoint.hpp"
#include "redis/transport/transport.hpp"
#include "util/error.hpp"

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// Redis checks blocked clients' timeouts from its cron (hz 10 by default): a block ends up to
// 100 ms after its time. A blocking command's deadline allows for it; without this, a short
// command timeout would break the connection of a block about to end normally.
inline constexpr Millis kServerTimerSlack{200};

// One synchronous connection to a Redis server. hiredis only encodes commands and parses replies
// (this file pair and reply.cpp are the only places that use it); the bytes go through a
// Transport (plain or TLS), and every call has one deadline: the command timeout (plus the block
// time of a blocking command) from the moment it is sent.
class Connection {
  public:
    // Connects, then authenticates and selects the database in one round trip when needed.
    // Failures are exit_code::unavailable and name the endpoint, never the password; an error
    // reply that refused the connection is typed (Error::server), as are I/O failures
    // (Error::io). A failure that is neither (a TLS file, OpenSSL missing) names no server.
    static Result<Connection> open(const ConnectOptions& options);

    // Runs one command. I/O errors and timeouts become transient `unavailable` errors naming the
    // server (the connection is then broken and must be reopened); error replies become
    // `internal` errors carrying the server's message as it is, decoded into Error::server,
    // except authentication and ACL errors which are `unavailable` and name the server.
    // A nil reply is returned as a Reply for the caller to interpret.
    Result<Reply> command(std::span<const std::string_view> args);
    Result<Reply> command(std::initializer_list<std::string_view> args) {
        return command(std::span<const std::string_view>(args.begin(), args.size()));
    }
    // Sends all `commands`, then reads their replies: one round trip. An I/O error fails the
    // whole batch (the connection is then broken); each reply is checked as by command(). One
    // of them may block (WAIT) for up to `block`, which extends the deadline.
    Result<std::vector<Result<Reply>>>
    pipeline(const std::vector<std::vector<std::string>>& commands, Millis block = Millis(0));
    // For a blocking command (BLPOP ... timeout): the deadline is `block` longer, plus the
    // lateness of Redis' timer that ends blocks.
    Result<Reply> blocking_command(std::initializer_list<std::string_view> args, Millis block);

    // For a subscribed connection (SUBSCRIBE sent with command()): the next message the server
    // pushes within `block`, nullopt when none came. Unlike a command's, this timeout leaves the
    // connection usable (a reply read in part is kept for the next call).
    Result<std::optional<Reply>> next_push(Millis block);

    bool broken() const { return broken_; }
    const ConnectOptions& options() const { return options_; }

    ~Connection();
    Connection(Connection&&) noexcept;
    Connection& operator=(Connection&&) noexcept;

  private:
    Connection(std::unique_ptr<Transport> transport, ConnectOptions options);
    Deadline deadline(Millis extra = Millis(0)) const;
    // Sends bytes / reads one reply. A failure breaks the connection and gives the reason only.
    Result<void> send(std::string_view bytes, Deadline until);
    Result<Reply> receive(Deadline until);
    Error reader_failure();
    std::optional<Error> refusal_unread();
    Result<Reply> timed_command(std::span<const std::string_view> args, Deadline until);
    // AUTH, SELECT and ROLE, as the options ask.
    Result<void> set_up();
    Error set_up_failure(Error cause) const;
    std::string reason(const Error& cause) const;
    Error io_error(std::string_view what, Error cause) const;
    Result<Reply> checked(Result<Reply> reply, std::string_view command_name);

    std::unique_ptr<Transport> transport_;
    ReplyReader reader_;
    ConnectOptions options_;
    bool broken_ = false;
    bool received_ = false; // any byte from the server yet
};

} // namespace dlock::redis
