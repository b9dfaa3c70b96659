#pragma once

#include "util/fault.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace dlock {

namespace redis {
struct ServerError; // redis/protocol/server_error.hpp
}

// How the connection to a server failed, as the transport saw it.
enum class IoFailure : uint8_t {
    timeout,  // the deadline of the call passed
    refused,  // nothing listens there (connection refused, no such socket)
    reset,    // the connection was reset, or the server went away while we wrote
    closed,   // the server closed the connection
    tls,      // TLS refused the session (verification, a client certificate) or broke it
    protocol, // the server sent bytes that are no reply
    other,    // anything else (a name that does not resolve, an unexpected errno)
};

// A failure that ends up as one line on stderr and an exit status.
struct Error {
    Fault fault = Fault::internal;
    std::string message;
    // True when retrying the same operation may succeed (I/O error, timeout, lost connection).
    bool transient = false;
    // The server could not be connected to at all (as opposed to a connection that failed):
    // retries are unlikely to help soon.
    bool unreachable = false;
    // What went wrong, typed where it was seen, so that the layers above decide on it and never
    // on the words of `message`: the transport failed (io), or the server answered with an error
    // reply (server, decoded once by Connection). Neither: a local error (a file, an option).
    std::optional<IoFailure> io{};
    std::shared_ptr<const redis::ServerError> server{};
};

// What a subcommand (cli::Subcommand::execute) and the app:: function behind it return is a
// Result<int>: the exit status when dlock did its job, whatever the status (0, 1 for "nothing",
// 75 when the lock was not obtained, the command's own status...), with anything worth saying
// already logged; or the Error that stopped it, which cli/main.cpp alone reports, as one line.
template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(Fault fault, std::string message, bool transient = false) {
    return tl::unexpected<Error>(Error{fault, std::move(message), transient});
}

// A transient `unavailable` error of the transport: `reason` only, the connection names the
// server.
inline tl::unexpected<Error> io_fail(IoFailure kind, std::string reason) {
    Error error{Fault::unavailable, std::move(reason), true};
    error.io = kind;
    return tl::unexpected<Error>(std::move(error));
}

inline tl::unexpected<Error> usage_error(std::string message) {
    return fail(Fault::bad_input, std::move(message));
}

} // namespace dlock

// Propagating an Error. Both macros are plain statements, not GCC statement expressions
// (`auto x = TRY(f());`): no compiler extension under -Wpedantic, and no early return from the
// middle of an expression whose other temporaries are half built.

// TRY(expr): evaluates `expr`, a Result (a call, or a variable, which is not copied); when it
// holds an Error, returns a copy from the enclosing function (which returns a Result of any type).
#define TRY(...)                                                                                   \
    do {                                                                                           \
        if (auto&& dlock_try_result_ = (__VA_ARGS__); !dlock_try_result_)                          \
            return ::tl::unexpected(dlock_try_result_.error());                                    \
    } while (false)

// TRY_ASSIGN(lhs, expr): as TRY, then moves the value into `lhs`, a declaration (`auto name`,
// `const app::Target target`) or anything assignable (`options.ttl`). Several statements: not
// the body of an unbraced `if`, and at most one per line.
#define TRY_ASSIGN(lhs, ...) DLOCK_TRY_ASSIGN_(DLOCK_TRY_NAME_(__LINE__), lhs, __VA_ARGS__)

#define DLOCK_TRY_NAME_(line) DLOCK_TRY_CONCAT_(dlock_try_result_, line)
#define DLOCK_TRY_CONCAT_(a, b) a##b
#define DLOCK_TRY_ASSIGN_(result, lhs, ...)                                                        \
    auto result = (__VA_ARGS__);                                                                   \
    if (!result)                                                                                   \
        return ::tl::unexpected(std::move(result).error());                                        \
    lhs = std::move(*result)
