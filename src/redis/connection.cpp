#include "redis/connection.hpp"

#include "redis/socket.hpp"

#include <cctype>
#include <fmt/format.h>
#include <hiredis/hiredis.h>
#include <string>
#include <sys/time.h>
#include <unistd.h>
#include <vector>

namespace dlock::redis {
namespace {

timeval to_timeval(Millis d) {
    return timeval{static_cast<time_t>(d.count() / 1000),
                   static_cast<suseconds_t>((d.count() % 1000) * 1000)};
}

// hiredis' error text, with its socket-timeout wording ("Resource temporarily unavailable")
// replaced by `timed_out`.
std::string failure_reason(const redisContext& c, std::string_view timed_out) {
    std::string reason = c.errstr;
    if (reason.find("temporarily unavailable") != std::string::npos ||
        reason.find("timed out") != std::string::npos)
        return std::string(timed_out);
    return reason.empty() ? "connection lost" : reason;
}

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
        return Error{exit_code::unavailable,
                     fmt::format("Redis at {} requires a password (NOAUTH): set "
                                 "DLOCK_REDIS_PASSWORD or --password-file",
                                 ep.display())};
    if (msg.starts_with("NOPERM"))
        return Error{exit_code::unavailable,
                     fmt::format("user {} lacks permission for {} on Redis at {} ({})",
                                 ep.user.empty() ? "default" : ep.user, upper(command_name),
                                 ep.display(), msg)};
    return Error{exit_code::unavailable,
                 fmt::format("authentication to Redis at {} failed: {}", ep.display(), msg)};
}

// hiredis' argv form of a command: pointers and lengths (binary safe).
struct Argv {
    std::vector<const char*> argv;
    std::vector<size_t> lens;

    template <typename Range>
    explicit Argv(const Range& args) {
        for (const auto& a : args) {
            argv.push_back(a.data());
            lens.push_back(a.size());
        }
    }
    int argc() const { return static_cast<int>(argv.size()); }
};

} // namespace

void Connection::Free::operator()(redisContext* c) const {
    redisFree(c);
}

Connection::Connection(std::unique_ptr<redisContext, Free> ctx, ConnectOptions options)
    : ctx_(std::move(ctx)), options_(std::move(options)) {}

Error Connection::io_error(std::string_view what) const {
    return Error{
        exit_code::unavailable,
        fmt::format("{} failed on Redis at {}: {}", what, options_.endpoint.display(),
                    failure_reason(*ctx_, fmt::format("timed out after {}",
                                                      format_duration(options_.command_timeout)))),
        true};
}

Result<Connection> Connection::open(const ConnectOptions& options) {
    const Endpoint& ep = options.endpoint;
    auto fd = connect_socket(ep, options.connect_timeout);
    if (!fd) {
        fd.error().message =
            fmt::format("cannot reach Redis at {}: {}", ep.display(), fd.error().message);
        fd.error().unreachable = true;
        return tl::unexpected(fd.error());
    }
    redisContext* raw = redisConnectFd(*fd);
    if (raw == nullptr) {
        close(*fd);
        return fail(exit_code::unavailable,
                    fmt::format("cannot reach Redis at {}: out of memory", ep.display()));
    }
    std::unique_ptr<redisContext, Free> ctx(raw);
    redisSetTimeout(ctx.get(), to_timeval(options.command_timeout));
    if (ep.unix_path.empty())
        redisEnableKeepAlive(ctx.get());

    Connection conn(std::move(ctx), options);
    // AUTH and SELECT are pipelined: one round trip, and only when configured.
    int pending = 0;
    if (!ep.password.empty()) {
        if (ep.user.empty())
            redisAppendCommand(conn.ctx_.get(), "AUTH %b", ep.password.data(), ep.password.size());
        else
            redisAppendCommand(conn.ctx_.get(), "AUTH %b %b", ep.user.data(), ep.user.size(),
                               ep.password.data(), ep.password.size());
        ++pending;
    }
    if (ep.db != 0) {
        redisAppendCommand(conn.ctx_.get(), "SELECT %d", ep.db);
        ++pending;
    }
    for (int i = 0; i < pending; ++i) {
        void* raw_reply = nullptr;
        if (redisGetReply(conn.ctx_.get(), &raw_reply) != REDIS_OK)
            return fail(
                exit_code::unavailable,
                fmt::format("cannot reach Redis at {}: {}", ep.display(),
                            failure_reason(*conn.ctx_,
                                           fmt::format("timed out after {}",
                                                       format_duration(options.command_timeout)))),
                true);
        Reply reply(static_cast<redisReply*>(raw_reply));
        if (reply.is_error()) {
            if (i == 0 && !ep.password.empty())
                return tl::unexpected(access_error(reply.str(), ep, "AUTH"));
            return fail(exit_code::unavailable,
                        fmt::format("cannot select database {} on Redis at {}: {}", ep.db,
                                    ep.display(), reply.str()));
        }
    }
    return conn;
}

Result<Reply> Connection::checked(void* raw_reply, std::string_view command_name) {
    if (raw_reply == nullptr) {
        broken_ = true;
        return tl::unexpected(io_error(command_name));
    }
    Reply reply(static_cast<redisReply*>(raw_reply));
    if (reply.is_error()) {
        std::string_view msg = reply.str();
        if (is_auth_error(msg) || msg.starts_with("NOPERM")) {
            // After "unauthenticated multibulk" the server has closed the connection.
            if (is_missing_password(msg))
                broken_ = true;
            return tl::unexpected(access_error(msg, options_.endpoint, command_name));
        }
        return fail(exit_code::internal, std::string(msg));
    }
    return reply;
}

Result<Reply> Connection::command(std::span<const std::string_view> args) {
    if (broken_)
        return tl::unexpected(io_error(args.empty() ? "command" : args[0]));
    Argv a(args);
    void* raw = redisCommandArgv(ctx_.get(), a.argc(), a.argv.data(), a.lens.data());
    return checked(raw, args.empty() ? "command" : args[0]);
}

Result<std::vector<Result<Reply>>>
Connection::pipeline(const std::vector<std::vector<std::string>>& commands) {
    if (broken_)
        return tl::unexpected(io_error("pipeline"));
    for (const auto& args : commands) {
        Argv a(args);
        if (redisAppendCommandArgv(ctx_.get(), a.argc(), a.argv.data(), a.lens.data()) !=
            REDIS_OK) {
            broken_ = true;
            return tl::unexpected(io_error("pipeline"));
        }
    }
    std::vector<Result<Reply>> replies;
    replies.reserve(commands.size());
    for (const auto& args : commands) {
        void* raw = nullptr;
        const std::string_view name = args.empty() ? "pipeline" : std::string_view(args[0]);
        if (redisGetReply(ctx_.get(), &raw) != REDIS_OK) {
            broken_ = true;
            return tl::unexpected(io_error(name));
        }
        replies.push_back(checked(raw, name));
    }
    return replies;
}

Result<Reply> Connection::blocking_command(std::initializer_list<std::string_view> args,
                                           Millis block) {
    redisSetTimeout(ctx_.get(), to_timeval(options_.command_timeout + block));
    auto reply = command(args);
    if (!broken_)
        redisSetTimeout(ctx_.get(), to_timeval(options_.command_timeout));
    return reply;
}

Result<bool> Connection::blpop(std::string_view key, Millis timeout) {
    if (timeout < Millis(1))
        return command({"LPOP", key}).map([](const Reply& r) { return !r.is_nil(); });
    // BLPOP takes seconds with decimals (Redis >= 6).
    const std::string seconds = fmt::format("{:.3f}", static_cast<double>(timeout.count()) / 1000);
    return blocking_command({"BLPOP", key, seconds}, timeout).map([](const Reply& r) {
        return !r.is_nil();
    });
}

} // namespace dlock::redis
