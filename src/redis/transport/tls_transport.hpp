#pragma once

#include "redis/transport/endpoint.hpp"
#include "redis/transport/transport.hpp"
#include "util/error.hpp"

#include <memory>

namespace dlock::redis {

// Connects to `options.endpoint` and performs the TLS handshake, both by `deadline`. OpenSSL is
// loaded now, on first use (openssl_api.hpp). The server's certificate is verified for the name
// dlock connects to (its IP address for an IP literal) or `options.tls.server_name`, which is
// also the name sent in SNI (never an IP address).
// Errors: the library missing → unavailable (69); an unreadable CA, certificate or key file →
// usage (64), before connecting; a handshake the server or dlock refused (verification, host name
// mismatch, no client certificate, not a TLS server) → unavailable and not transient, with a
// complete message ("TLS handshake with Redis at host:port failed: ..."); a reset or a timeout
// during the handshake → transient, the reason only, as for a plain connection.
Result<std::unique_ptr<Transport>> open_tls_transport(const ConnectOptions& options,
                                                      Deadline deadline);

} // namespace dlock::redis
