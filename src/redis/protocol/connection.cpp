#include "redis/protocol/connection.hpp"

#include <cctype>
#include <chrono>
#include <fmt/format.h>
#include <hiredis/hiredis.h>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

bool is_auth_error(std::string_view msg) {
    return msg.starts_with("NOAUTH") || msg.starts_with("WRONGPASS") ||
           msg.starts_with("ERR invalid password") || msg.starts_with("ERR AUTH") ||
           // Redis drops unauthenticated clients that send long commands with this error.
           msg.find("unauthenticated") != std::string_view::npos;
}

bool is_missing_password(std::string_view msg) {
    return msg.starts_with("NOAUTH") || msg.find("unauthenticated") != std::string_view::npos;
}

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// The one line for an error reply about who we are (auth) or what we may do (ACL).
Error access_error(std::string_view msg, const Endpoint& ep, std::string_view command_name) {
    if (is_missing_password(msg))
        return Error{Fault::unavailable,
                     fmt::format("Redis at {} requires a password (NOAUTH): set "
                                 "DLOCK_REDIS_PASSWORD or --password-file",
                                 ep.display())};
    if (msg.starts_with("NOPERM"))
        return Error{Fault::unavailable,
                     fmt::format("user {} lacks permission for {} on Redis at {} ({})",
                                 ep.user.empty() ? "default" : ep.user, upper(command_name),
                                 ep.display(), msg)};
    return Error{Fault::unavailable,
                 fmt::format("authentication to Redis at {} failed: {}", ep.display(), msg)};
}

// Appends the RESP encoding of one command (binary safe) to `out`.
void append_command(std::string& out, std::span<const std::string_view> args) {
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    argv.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
        argv.push_back(a.data());
        lens.push_back(a.size());
    }
    char* formatted = nullptr;
    const int len =
        redisFormatCommandArgv(&formatted, static_cast<int>(argv.size()), argv.data(), lens.data());
    if (len < 0)
        throw std::bad_alloc();
    out.append(formatted, static_cast<size_t>(len));
    redisFreeCommand(formatted);
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
    if (cause.message == "timed out")
        return fmt::format("timed out after {}", format_duration(options_.command_timeout));
    return cause.message;
}

Error Connection::io_error(std::string_view what, const Error& cause) const {
    if (!cause.transient)
        return cause; // complete already: a TLS server refused us (transport.hpp)
    return Error{Fault::unavailable,
                 fmt::format("{} failed on Redis at {}: {}", what, options_.endpoint.display(),
                             reason(cause)),
                 true};
}

Deadline Connection::deadline(Millis extra) const {
    return Clock::now() + options_.command_timeout + extra;
}

Result<void> Connection::send(std::string_view bytes, Deadline until) {
    if (broken_)
        return fail(Fault::unavailable, "connection lost", true);
    auto written = transport_->write_all(bytes, until);
    if (!written)
        broken_ = true;
    return written;
}

// A reply hiredis cannot parse is transient (a reconnection starts afresh); one over the limit
// is not: the server would send it again, so the one line is complete, naming the server.
Error Connection::reader_failure() {
    broken_ = true;
    if (reader_.failure() == ReplyReader::Failure::too_large)
        return Error{Fault::unavailable,
                     fmt::format("Redis at {} sent a reply larger than {} (protocol error)",
                                 options_.endpoint.display(), kMaxReplyText)};
    return Error{Fault::unavailable, fmt::format("protocol error: {}", reader_.protocol_error()),
                 true};
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
            return fail(Fault::unavailable, "timed out", true);
        }
        char buffer[16 * 1024];
        auto n = transport_->read_some(buffer, until);
        if (!n) {
            broken_ = true;
            // A TLS server resets a plain client at its first command, without a word.
            const Endpoint& ep = options_.endpoint;
            if (!received_ && !ep.tls && ep.unix_path.empty() && n.error().transient &&
                n.error().message != "timed out")
                n.error().message += " (if that port speaks TLS: rediss://)";
            return tl::unexpected(n.error());
        }
        received_ = true;
        reader_.feed(std::string_view(buffer, *n));
    }
}

Result<Connection> Connection::open(const ConnectOptions& options) {
    const Endpoint& ep = options.endpoint;
    auto transport = open_transport(options);
    if (!transport && !transport.error().transient)
        return tl::unexpected(transport.error()); // complete: a TLS or file error
    if (!transport) {
        transport.error().message =
            fmt::format("cannot reach Redis at {}: {}", ep.display(), transport.error().message);
        transport.error().unreachable = true;
        return tl::unexpected(transport.error());
    }
    Connection conn(std::move(*transport), options);

    // AUTH, SELECT and ROLE are pipelined: one round trip, and only when needed.
    std::string batch;
    int pending = 0;
    if (!ep.password.empty()) {
        if (ep.user.empty())
            append_command(batch, {"AUTH", ep.password});
        else
            append_command(batch, {"AUTH", ep.user, ep.password});
        ++pending;
    }
    const std::string db = std::to_string(ep.db);
    if (ep.db != 0) {
        append_command(batch, {"SELECT", db});
        ++pending;
    }
    if (options.expect_master) {
        append_command(batch, {"ROLE"});
        ++pending;
    }
    if (pending == 0)
        return conn;
    const auto until = conn.deadline();
    auto unreachable = [&](const Error& e) {
        if (!e.transient)
            return tl::unexpected(e); // a TLS server refused us after the handshake
        return fail(Fault::unavailable,
                    fmt::format("cannot reach Redis at {}: {}", ep.display(), conn.reason(e)),
                    true);
    };
    if (auto sent = conn.send(batch, until); !sent)
        return unreachable(sent.error());
    std::optional<Error> failure; // the first one; every reply is read all the same
    for (int i = 0; i < pending; ++i) {
        auto reply = conn.receive(until);
        if (!reply)
            return unreachable(reply.error());
        const bool is_auth = i == 0 && !ep.password.empty();
        const bool is_role = options.expect_master && i == pending - 1;
        if (failure)
            continue;
        if (reply->is_error() && is_auth)
            failure = access_error(reply->str(), ep, "AUTH");
        else if (reply->is_error() && is_role &&
                 (reply->str().starts_with("NOPERM") || is_auth_error(reply->str())))
            failure = access_error(reply->str(), ep, "ROLE");
        else if (reply->is_error() && !is_role &&
                 reply->str().find("not allowed in cluster mode") != std::string_view::npos)
            // A Cluster node has database 0 only: the URL is wrong, retrying will not help.
            failure = Error{Fault::bad_input,
                            fmt::format("Redis at {} is a Redis Cluster node, which has only "
                                        "database 0: remove the database ({}) from the URL",
                                        ep.display(), ep.db)};
        else if (reply->is_error() && !is_role)
            failure = Error{Fault::unavailable,
                            fmt::format("cannot select database {} on Redis at {}: {}", ep.db,
                                        ep.display(), reply->str())};
        else if (is_role &&
                 (!reply->is_array() || reply->size() == 0 || (*reply)[0].str() != "master"))
            // Transient: a failover is under way, or the sentinels' answer was out of date.
            failure = Error{Fault::unavailable,
                            fmt::format("Redis at {} is not a master (ROLE {})", ep.display(),
                                        reply->is_array() && reply->size() > 0 ? (*reply)[0].str()
                                                                               : reply->str()),
                            true};
    }
    if (failure)
        return tl::unexpected(*failure);
    return conn;
}

Result<Reply> Connection::checked(Result<Reply> reply, std::string_view command_name) {
    if (!reply || !reply->is_error())
        return reply;
    std::string_view msg = reply->str();
    if (is_auth_error(msg) || msg.starts_with("NOPERM")) {
        // After "unauthenticated multibulk" the server has closed the connection.
        if (is_missing_password(msg))
            broken_ = true;
        return tl::unexpected(access_error(msg, options_.endpoint, command_name));
    }
    return fail(Fault::internal, std::string(msg));
}

Result<Reply> Connection::timed_command(std::span<const std::string_view> args, Deadline until) {
    const std::string_view name = args.empty() ? std::string_view("command") : args[0];
    std::string bytes;
    append_command(bytes, args);
    if (auto sent = send(bytes, until); !sent)
        return tl::unexpected(io_error(name, sent.error()));
    auto reply = receive(until);
    if (!reply)
        return tl::unexpected(io_error(name, reply.error()));
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
        return tl::unexpected(io_error("pipeline", sent.error()));
    std::vector<Result<Reply>> replies;
    replies.reserve(commands.size());
    for (const auto& args : commands) {
        const std::string_view name = args.empty() ? std::string_view("pipeline") : args[0];
        auto reply = receive(until);
        if (!reply)
            return tl::unexpected(io_error(name, reply.error()));
        replies.push_back(checked(std::move(reply), name));
    }
    return replies;
}

Result<Reply> Connection::blocking_command(std::initializer_list<std::string_view> args,
                                           Millis block) {
    return timed_command(std::span<const std::string_view>(args.begin(), args.size()),
                         deadline(block + kServerTimerSlack));
}

} // namespace dlock::redis
