#include "redis/protocol/connection.hpp"

#include "redis/protocol/server_error.hpp"

#include <cctype>
#include <charconv>
#include <chrono>
#include <fmt/format.h>
#include <hiredis/hiredis.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

Error server_failure(Fault fault, std::string message, ServerError reply) {
    Error error{fault, std::move(message)};
    error.server = std::make_shared<const ServerError>(std::move(reply));
    return error;
}

// Redis takes a connection over its client limit, answers its first command (or the first byte
// it reads) with "ERR max number of clients reached" and closes it. Not a failure of that command
// (none of ours ran) but of the connection: unavailable, and transient, since a slot frees as
// soon as another client leaves.
Error client_limit_error(ServerError reply, const ConnectOptions& options) {
    Error error{Fault::unavailable,
                fmt::format("{} refused the connection: max number of clients reached (its "
                            "maxclients)",
                            peer_name(options)),
                true};
    error.server = std::make_shared<const ServerError>(std::move(reply));
    return error;
}

// The one line for an error reply about who we are (auth) or what we may do (ACL).
Error access_error(ServerError reply, const ConnectOptions& options,
                   std::string_view command_name) {
    const Endpoint& ep = options.endpoint;
    std::string message;
    if (reply.code == ServerErrorCode::noauth)
        message = fmt::format("{} requires a password (NOAUTH): set DLOCK_REDIS_PASSWORD, "
                              "--password-file or the config's password-file",
                              peer_name(options));
    else if (reply.code == ServerErrorCode::noperm)
        message = fmt::format("user {} lacks permission for {} on {} ({})",
                              ep.user.empty() ? "default" : ep.user, upper(command_name),
                              peer_name(options), reply.text);
    else if (reply.code == ServerErrorCode::auth && !ep.password_from.empty())
        // Settings mix: the URL from one place, the password from another.
        message = fmt::format("{} refused {}the password from {}: {}", peer_name(options),
                              ep.user.empty() ? "" : fmt::format("user {} with ", ep.user),
                              ep.password_from, reply.text);
    else
        message = fmt::format("authentication to {} failed: {}", peer_name(options), reply.text);
    return server_failure(Fault::unavailable, std::move(message), std::move(reply));
}

// The commands Connection::open sends before the connection is handed over.
enum class SetUp { auth, select, role };

// Why the reply to a set-up command refuses the connection, if it does.
std::optional<Error> refusal(SetUp step, const Reply& reply, const ConnectOptions& options) {
    const Endpoint& ep = options.endpoint;
    if (step == SetUp::role) {
        if (reply.is_error()) {
            ServerError error = classify(reply.str());
            if (error.code == ServerErrorCode::maxclients)
                return client_limit_error(std::move(error), options);
            if (access_denied(error.code))
                return access_error(std::move(error), options, "ROLE");
        }
        if (reply.is_array() && reply.size() > 0 && reply[0].str() == "master")
            return std::nullopt;
        // Transient: a failover is under way, or the sentinels' answer was out of date.
        return Error{
            Fault::unavailable,
            fmt::format("{} is not a master (ROLE {})", peer_name(options),
                        reply.is_array() && reply.size() > 0 ? reply[0].str() : reply.str()),
            true};
    }
    if (!reply.is_error())
        return std::nullopt;
    ServerError error = classify(reply.str());
    if (error.code == ServerErrorCode::maxclients)
        return client_limit_error(std::move(error), options);
    if (step == SetUp::auth)
        return access_error(std::move(error), options, "AUTH");
    if (error.code == ServerErrorCode::cluster_mode)
        // A Cluster node has database 0 only: the URL is wrong, retrying will not help.
        return server_failure(Fault::bad_input,
                              fmt::format("{} is a Redis Cluster node, which has only database "
                                          "0: remove the database ({}) from the URL",
                                          peer_name(options), ep.db),
                              std::move(error));
    std::string message =
        fmt::format("cannot select database {} on {}: {}", ep.db, peer_name(options), error.text);
    return server_failure(Fault::unavailable, std::move(message), std::move(error));
}

// Appends a RESP header: `type` then `n` and CRLF ("*3\r\n", "$5\r\n").
void append_header(std::string& out, char type, size_t n) {
    char buf[24];
    buf[0] = type;
    char* end = std::to_chars(buf + 1, buf + sizeof buf - 2, n).ptr;
    *end++ = '\r';
    *end++ = '\n';
    out.append(buf, static_cast<size_t>(end - buf));
}

// Appends the RESP encoding of one command (binary safe) to `out`. Written here rather than
// with hiredis's formatter, which runs sprintf for every argument: it was the largest part of
// a lock script call's client-side cost.
void append_command(std::string& out, std::span<const std::string_view> args) {
    size_t size = 16;
    for (const auto& a : args)
        size += a.size() + 16;
    out.reserve(out.size() + size);
    append_header(out, '*', args.size());
    for (const auto& a : args) {
        append_header(out, '$', a.size());
        out.append(a);
        out.append("\r\n");
    }
}

void append_command(std::string& out, std::initializer_list<std::string_view> args) {
    append_command(out, std::span<const std::string_view>(args.begin(), args.size()));
}

void append_command(std::string& out, const std::vector<std::string>& args) {
    std::vector<std::string_view> views(args.begin(), args.end());
    append_command(out, std::span<const std::string_view>(views));
}

} // namespace

Connection::Connection(std::unique_ptr<Transport> transport, ConnectOptions options)
    : transport_(std::move(transport)), options_(std::move(options)) {}

Connection::~Connection() = default;
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;

std::string Connection::reason(const Error& cause) const {
    if (cause.io == IoFailure::timeout)
        return fmt::format("timed out after {}", format_duration(options_.command_timeout));
    return cause.message;
}

Error Connection::io_error(std::string_view what, Error cause) const {
    if (!cause.transient || cause.server)
        return cause; // complete already: a TLS server refused us (transport.hpp), or Redis did
    cause.message = fmt::format("{} failed on {}: {}", what, peer_name(options_), reason(cause));
    return cause;
}

Deadline Connection::deadline(Millis extra) const {
    return Clock::now() + options_.command_timeout + extra;
}

Result<void> Connection::send(std::string_view bytes, Deadline until) {
    if (broken_)
        return io_fail(IoFailure::closed, "connection lost");
    auto written = transport_->write_all(bytes, until);
    if (!written) {
        broken_ = true;
        if (auto refused = refusal_unread())
            return tl::unexpected(std::move(*refused));
    }
    return written;
}

// A server that refused the connection for its client limit wrote why and closed it: the
// command written after that close fails (broken pipe, reset) while the reason may still wait
// unread in the socket. It, not the broken pipe, is the failure.
std::optional<Error> Connection::refusal_unread() {
    if (received_)
        return std::nullopt;
    char buffer[512];
    auto n = transport_->read_some(buffer, Clock::now()); // what has come, no waiting
    if (!n)
        return std::nullopt;
    received_ = true;
    reader_.feed(std::string_view(buffer, *n));
    auto reply = reader_.next();
    if (!reply || !reply->is_error())
        return std::nullopt;
    ServerError error = classify(reply->str());
    if (error.code != ServerErrorCode::maxclients)
        return std::nullopt;
    return client_limit_error(std::move(error), options_);
}

// A reply hiredis cannot parse is transient (a reconnection starts afresh); one over the limit
// is not: the server would send it again, so the one line is complete, naming the server.
Error Connection::reader_failure() {
    broken_ = true;
    if (reader_.failure() == ReplyReader::Failure::too_large) {
        Error error{Fault::unavailable,
                    fmt::format("{} sent a reply larger than {} (protocol error)",
                                peer_name(options_), kMaxReplyText)};
        error.io = IoFailure::protocol;
        return error;
    }
    return io_fail(IoFailure::protocol, fmt::format("protocol error: {}", reader_.protocol_error()))
        .value();
}

Result<Reply> Connection::receive(Deadline until) {
    for (;;) {
        if (auto reply = reader_.next())
            return std::move(*reply);
        if (reader_.failure() != ReplyReader::Failure::none)
            return tl::unexpected(reader_failure());
        // A server that never stops sending never lets read_some wait for the deadline.
        if (Clock::now() >= until) {
            broken_ = true;
            return io_fail(IoFailure::timeout, "timed out");
        }
        char buffer[16 * 1024];
        auto n = transport_->read_some(buffer, until);
        if (!n) {
            broken_ = true;
            // A TLS server resets a plain client at its first command, without a word.
            const Endpoint& ep = options_.endpoint;
            if (!received_ && !ep.tls && ep.unix_path.empty() && n.error().transient &&
                n.error().io != IoFailure::timeout)
                n.error().message += " (if that port speaks TLS: rediss://)";
            return tl::unexpected(n.error());
        }
        received_ = true;
        reader_.feed(std::string_view(buffer, *n));
    }
}

Result<std::optional<Reply>> Connection::next_push(Millis block) {
    const Deadline until = Clock::now() + block;
    for (;;) {
        if (auto reply = reader_.next())
            return std::optional<Reply>(std::move(*reply));
        if (reader_.failure() != ReplyReader::Failure::none)
            return tl::unexpected(reader_failure());
        if (broken_)
            return io_fail(IoFailure::closed, "connection lost");
        if (Clock::now() >= until)
            return std::optional<Reply>{};
        char buffer[16 * 1024];
        auto n = transport_->read_some(buffer, until);
        if (!n && n.error().io == IoFailure::timeout)
            return std::optional<Reply>{};
        if (!n) {
            broken_ = true;
            return tl::unexpected(n.error());
        }
        received_ = true;
        reader_.feed(std::string_view(buffer, *n));
    }
}

Result<Connection> Connection::open(const ConnectOptions& options) {
    auto transport = open_transport(options);
    if (!transport && !transport.error().transient)
        return tl::unexpected(transport.error()); // complete: a TLS or file error
    if (!transport) {
        transport.error().message =
            fmt::format("cannot reach {}: {}", peer_name(options), transport.error().message);
        transport.error().unreachable = true;
        return tl::unexpected(transport.error());
    }
    Connection conn(std::move(*transport), options);
    TRY(conn.set_up());
    return conn;
}

Result<void> Connection::set_up() {
    // AUTH, SELECT and ROLE are pipelined: one round trip, and only when needed.
    const Endpoint& ep = options_.endpoint;
    std::string batch;
    std::vector<SetUp> steps;
    if (!ep.password.empty()) {
        if (ep.user.empty())
            append_command(batch, {"AUTH", ep.password});
        else
            append_command(batch, {"AUTH", ep.user, ep.password});
        steps.push_back(SetUp::auth);
    }
    const std::string db = std::to_string(ep.db);
    if (ep.db != 0) {
        append_command(batch, {"SELECT", db});
        steps.push_back(SetUp::select);
    }
    if (options_.expect_master) {
        append_command(batch, {"ROLE"});
        steps.push_back(SetUp::role);
    }
    if (steps.empty())
        return {};
    const auto until = deadline();
    if (auto sent = send(batch, until); !sent)
        return tl::unexpected(set_up_failure(std::move(sent.error())));
    std::optional<Error> failure; // the first one; every reply is read all the same
    for (const SetUp step : steps) {
        auto reply = receive(until);
        if (!reply)
            return tl::unexpected(set_up_failure(std::move(reply.error())));
        if (!failure)
            failure = refusal(step, *reply, options_);
    }
    if (failure)
        return tl::unexpected(std::move(*failure));
    return {};
}

Error Connection::set_up_failure(Error cause) const {
    if (!cause.transient || cause.server)
        return cause; // a TLS server refused us after the handshake, or Redis did
    cause.message = fmt::format("cannot reach {}: {}", peer_name(options_), reason(cause));
    return cause;
}

Result<Reply> Connection::checked(Result<Reply> reply, std::string_view command_name) {
    if (!reply || !reply->is_error())
        return reply;
    ServerError error = classify(reply->str());
    if (error.code == ServerErrorCode::maxclients) {
        broken_ = true; // the server closed it
        return tl::unexpected(client_limit_error(std::move(error), options_));
    }
    if (access_denied(error.code)) {
        // After "unauthenticated multibulk" the server has closed the connection.
        if (error.code == ServerErrorCode::noauth)
            broken_ = true;
        return tl::unexpected(access_error(std::move(error), options_, command_name));
    }
    std::string text = error.text; // passed on as it is: the caller words it
    return tl::unexpected(server_failure(Fault::internal, std::move(text), std::move(error)));
}

Result<Reply> Connection::timed_command(std::span<const std::string_view> args, Deadline until) {
    const std::string_view name = args.empty() ? std::string_view("command") : args[0];
    std::string bytes;
    append_command(bytes, args);
    if (auto sent = send(bytes, until); !sent)
        return tl::unexpected(io_error(name, std::move(sent.error())));
    auto reply = receive(until);
    if (!reply)
        return tl::unexpected(io_error(name, std::move(reply.error())));
    return checked(std::move(reply), name);
}

Result<Reply> Connection::command(std::span<const std::string_view> args) {
    return timed_command(args, deadline());
}

Result<std::vector<Result<Reply>>>
Connection::pipeline(const std::vector<std::vector<std::string>>& commands, Millis block) {
    std::string bytes;
    for (const auto& args : commands)
        append_command(bytes, args);
    const auto until = deadline(block);
    if (auto sent = send(bytes, until); !sent)
        return tl::unexpected(io_error("pipeline", std::move(sent.error())));
    std::vector<Result<Reply>> replies;
    replies.reserve(commands.size());
    for (const auto& args : commands) {
        const std::string_view name = args.empty() ? std::string_view("pipeline") : args[0];
        auto reply = receive(until);
        if (!reply)
            return tl::unexpected(io_error(name, std::move(reply.error())));
        replies.push_back(checked(std::move(reply), name));
        if (!replies.back() && client_limit(replies.back().error()))
            return tl::unexpected(replies.back().error()); // it closed: no other reply comes
    }
    return replies;
}

Result<Reply> Connection::blocking_command(std::initializer_list<std::string_view> args,
                                           Millis block) {
    return timed_command(std::span<const std::string_view>(args.begin(), args.size()),
                         deadline(block + kServerTimerSlack));
}

} // namespace dlock::redis
