#pragma once

#include "redis/transport/endpoint.hpp"
#include "redis/transport/openssl_api.hpp"
#include "util/error.hpp"

namespace dlock::redis {

// The OpenSSL context for connections with `options`: TLS 1.2 at least; the server's certificate
// verified against the CA file/directory, or the system's default paths when neither is given
// (unless `insecure`); the client certificate and key loaded when given. Built once per set of
// options and kept for the life of the process (each connection holds a reference), so files
// are read once, not at every reconnection.
// A file that cannot be read or loaded is a usage error (64) naming it: found before anything
// is sent. An encrypted private key is refused (dlock never prompts for a passphrase).
Result<SSL_CTX*> tls_context(const OpenSslApi& api, const TlsOptions& options);

} // namespace dlock::redis
