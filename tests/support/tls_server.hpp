#pragma once

#include "redis/transport/endpoint.hpp"
#include "support/dlock_process.hpp"
#include "support/redis_server.hpp"

#include <memory>
#include <string>

namespace dlock::test {

// Certificates for the TLS tests, made with the openssl CLI (P-256 keys: fast) once per build
// tree (build/tests/tls-certs): a CA, a server certificate for DNS:localhost and IP:127.0.0.1
// signed by it, a client certificate signed by it, and another CA that signed nothing here (the
// "wrong CA").
struct TlsFiles {
    std::string dir;
    std::string ca;
    std::string server_cert, server_key;
    std::string client_cert, client_key;
    std::string other_ca;
};

// nullptr when the openssl CLI is missing (see REQUIRE_TLS_REDIS).
const TlsFiles* tls_files();

// A private redis-server speaking TLS only on its TCP port (its unix socket stays plain, for the
// tests' own inspection: RedisServer::cmd and url() use it). `auth_clients`: redis-server's
// tls-auth-clients, "no", "optional" or "yes". nullptr without redis-server or openssl.
std::unique_ptr<RedisServer> start_tls_redis(const std::string& auth_clients = "no");

// "rediss://HOST:PORT" of `server`.
std::string tls_url(const RedisServer& server, const std::string& host = "127.0.0.1");

// Options to connect to `server` over TLS, trusting the test CA; with the client certificate when
// `client_cert`.
redis::ConnectOptions tls_options(const RedisServer& server, bool client_cert = false);

// A sentinel (redis-server --sentinel) listening on TLS only, monitoring `master` (a TLS server)
// under the name "m", over TLS. It names the master from its configuration at once.
class TlsSentinel {
  public:
    // Fails the test when it does not come up within 10 s.
    explicit TlsSentinel(const RedisServer& master);
    ~TlsSentinel();
    TlsSentinel(const TlsSentinel&) = delete;
    TlsSentinel& operator=(const TlsSentinel&) = delete;

    int port() const { return port_; }

  private:
    std::string dir_;
    int port_ = 0;
    std::unique_ptr<Process> process_;
};

} // namespace dlock::test

// As REQUIRE_REDIS, for a TLS server.
#define REQUIRE_TLS_REDIS(var, auth_clients)                                                       \
    auto var = ::dlock::test::start_tls_redis(auth_clients);                                       \
    DLOCK_SKIP_UNLESS_STARTED(var, "redis-server or openssl", "TLS")
