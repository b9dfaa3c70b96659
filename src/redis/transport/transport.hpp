#pragma once

#include "redis/transport/endpoint.hpp"
#include "util/error.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace dlock::redis {

using Deadline = std::chrono::steady_clock::time_point;

// A connected byte stream to one Redis server: a plain socket or a TLS session over one. All I/O
// is non-blocking underneath and waits in poll() until `deadline`, so a command's timeout, a
// BLPOP's block and (later) a fan-out to several servers share one mechanism.
// Errors are transient `unavailable` errors giving the reason only ("connection reset by peer",
// "timed out") and its kind (Error::io); the connection names the server. A non-transient error
// is complete as it is: a TLS server refused us, or we it ("TLS handshake with Redis at
// host:port failed: ...", IoFailure::tls); no retry helps and the connection passes it on
// unchanged.
class Transport {
  public:
    virtual ~Transport() = default;
    // Writes all of `data`.
    virtual Result<void> write_all(std::string_view data, Deadline deadline) = 0;
    // Reads at least one byte into `buffer`; the server closing the connection is an error.
    virtual Result<size_t> read_some(std::span<char> buffer, Deadline deadline) = 0;
    // The socket, close-on-exec and non-blocking; owned by the transport. Its readiness is not
    // the whole story under TLS: see buffered().
    virtual int fd() const = 0;
    // Bytes already received and decrypted that read_some returns without waiting. Whoever polls
    // fd() (a fan-out to several servers) must read these first: the socket may have nothing.
    virtual bool buffered() const { return false; }
};

// Connects to `options.endpoint` (TCP or unix socket) within the connect timeout and, when
// `options.endpoint.tls` is set, performs the TLS handshake within the same deadline
// (tls_transport.hpp; OpenSSL is loaded then, never for a plain connection).
Result<std::unique_ptr<Transport>> open_transport(const ConnectOptions& options);

// A transport over the connected socket `fd`, which it owns from now on.
std::unique_ptr<Transport> plain_transport(int fd);

// Waits until `fd` is readable (POLLIN) or writable (POLLOUT) or `deadline` passes; retries on
// EINTR. Timed out: a transient error "timed out" (IoFailure::timeout).
Result<void> wait_for(int fd, short events, Deadline deadline);

} // namespace dlock::redis
