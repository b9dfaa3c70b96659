#pragma once

#include "redis/transport/endpoint.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// --min-replicas: how many replicas must acknowledge a lease (WAIT) before it counts.
struct Replication {
    int min_replicas = 0; // 0: no WAIT is sent
    Millis timeout{1000}; // WAIT's timeout; never 0, which would block forever
    // --min-replicas auto (the default): on Sentinel, every replica the sentinels list as up
    // and replicating when a lease is taken (one when it is extended), so that whichever a
    // failover promotes has every lease and token, and a master the failover left behind (short
    // of the promoted replica) cannot grant one; elsewhere 0. `min_replicas` is then set per
    // call (Topology::replication).
    bool automatic = false;
};

// One Redis deployment, as one --redis URL names it, and how to talk to it:
//   redis://[user[:password]@]host[:port][,host2[:port2]...][/db]     (rediss:// for TLS)
//   unix:///path/to/redis.sock[?db=N]
//   redis-sentinel://[user[:password]@]s1[:26379][,s2[:26379]...][/db]#master (rediss-sentinel://)
// Several hosts in a redis:// URL are seeds of one Redis Cluster (any one of them will do; the
// cluster is recognised from its redirects). In a sentinel URL the hosts are the sentinels, and
// the credentials, database and TLS are the master's; the sentinels' own credentials come from
// sentinel_user and sentinel_password (never the URL: other users see it in `ps`).
struct Deployment {
    enum class Kind {
        direct,   // one server, or the seeds of one Cluster
        sentinel, // the master that the sentinels name
    };
    Kind kind = Kind::direct;
    // direct: the server, or the Cluster's seeds, tried in order; sentinel: the sentinels.
    std::vector<Endpoint> nodes;
    std::string master_name; // sentinel: the monitored master's name
    Endpoint master;         // sentinel: credentials, database and TLS for the master
    std::string sentinel_user;
    std::string sentinel_password; // never printed
    TlsOptions tls;
    Millis connect_timeout{2000};
    Millis command_timeout{2000};
    Replication replication;

    Deployment() = default;
    // One server (the form most code and tests start from).
    Deployment(ConnectOptions single); // NOLINT(google-explicit-constructor)

    // How to connect to one node of the deployment: `endpoint` with the TLS options and timeouts.
    ConnectOptions connect_to(const Endpoint& endpoint) const;
    // Sets the password of every data node (not of the sentinels): a password from a file or
    // the environment beats one in the URL. `from` says where it came from (see Endpoint).
    void set_password(const std::string& password, const std::string& from = {});
    // Says where the password of every data node that has one came from.
    void set_password_source(const std::string& from);
    // "host:port", "h1:p1,h2:p2", or "master mymaster via s1:26379,s2:26379": no credentials.
    std::string display() const;
};

// Parses a --redis URL; a usage error (exit 64) naming what is wrong, never showing the password.
Result<Deployment> parse_deployment(std::string_view url);

// A URL naming one server (redis://, rediss://, unix://); a sentinel URL or several hosts are
// refused.
Result<Endpoint> parse_url(std::string_view url);

} // namespace dlock::redis
