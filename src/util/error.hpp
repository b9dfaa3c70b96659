#pragma once

#include "util/exit_codes.hpp"

#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace dlock {

// A failure that ends up as one line on stderr and an exit status.
struct Error {
    int exit_code = exit_code::internal;
    std::string message;
    // True when retrying the same operation may succeed (I/O error, timeout, lost connection).
    bool transient = false;
    // The server could not be connected to at all (as opposed to a connection that failed):
    // retries are unlikely to help soon.
    bool unreachable = false;
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(int exit_code, std::string message, bool transient = false) {
    return tl::unexpected<Error>(Error{exit_code, std::move(message), transient});
}

inline tl::unexpected<Error> usage_error(std::string message) {
    return fail(exit_code::usage, std::move(message));
}

} // namespace dlock
