#pragma once

#include "redis/transport/endpoint.hpp"
#include "util/error.hpp"

namespace dlock::redis {

// Opens a connected stream socket to the endpoint (TCP, trying each address in turn, or a unix
// socket) within `timeout`, and returns it non-blocking (transport.hpp waits in poll()). The socket
// is close-on-exec from the moment it exists: the command dlock runs must never inherit an
// authenticated connection, even when a watchdog thread reconnects while the command is being
// started. Failures are `unavailable` and transient, and give the reason only ("Connection
// refused", "connect timed out after 2s") and its kind (Error::io): the caller names the
// endpoint.
Result<int> connect_socket(const Endpoint& endpoint, Millis timeout);

// The kind of failure an errno of connect, send or recv means.
IoFailure io_failure_of(int error_number);

// A transient I/O error for `error_number`: its strerror text, and its kind.
tl::unexpected<Error> errno_failure(int error_number);

} // namespace dlock::redis
