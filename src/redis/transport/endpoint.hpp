#pragma once

#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace dlock::redis {

// Where and how to connect. Parsed from
//   redis://[user[:password]@]host[:port][/db]    (IPv6 hosts in brackets: redis://[::1]:6380)
//   unix:///path/to/redis.sock[?db=N]
struct Endpoint {
    std::string host; // empty for unix sockets
    int port = 6379;
    std::string unix_path; // empty for TCP
    std::string user;
    std::string password; // never printed
    // Where the password came from, for an auth failure: "DLOCK_REDIS_PASSWORD", "the URL
    // (--redis)"...; "" when unknown.
    std::string password_from;
    int db = 0;
    bool tls = false; // rediss://: the connection is TLS (see TlsOptions)

    // "host:port" or the socket path: safe to show, never contains credentials.
    std::string display() const;
};

// `url` with everything between "//" and "@" (the credentials) replaced by "***": safe to show.
std::string redact_url(std::string_view url);

// How TLS connections verify the server and present a client certificate. Used only when the
// endpoint says TLS.
struct TlsOptions {
    std::string ca_file;     // CA certificates (PEM); empty: the system's default paths
    std::string ca_dir;      // a hashed CA directory (c_rehash)
    std::string cert_file;   // client certificate chain (PEM), for mutual TLS
    std::string key_file;    // its private key (PEM)
    std::string server_name; // SNI and the name verified; empty: the endpoint's host
    bool insecure = false;   // skip verification of the server's certificate (warned)

    bool operator==(const TlsOptions&) const = default;
};

// What the server is to dlock, for the messages that name it.
enum class Peer : uint8_t {
    redis,    // "Redis at host:port"
    sentinel, // "sentinel host:port"
};

struct ConnectOptions {
    Endpoint endpoint;
    TlsOptions tls;
    Millis connect_timeout{2000};
    Millis command_timeout{2000};
    // Check with ROLE, in the round trip of AUTH/SELECT, that the server is a master: one named
    // by Sentinel may have been demoted since.
    bool expect_master = false;
    Peer peer = Peer::redis;
};

// The server of `options` as messages name it: "Redis at host:port", "sentinel host:port".
std::string peer_name(const ConnectOptions& options);

} // namespace dlock::redis
