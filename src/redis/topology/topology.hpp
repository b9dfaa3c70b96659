#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/protocol/server_reply.hpp"
#include "redis/topology/deployment.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// A command's way through the deployment so far (see ScriptSession::routed): how many times in
// a row it was sent elsewhere, and how long a busy Cluster is still waited for.
struct Attempts {
    std::chrono::steady_clock::time_point deadline; // the command timeout
    Millis pause{10};                               // before the next TRYAGAIN/CLUSTERDOWN retry
    int redirects = 0;
};

// What to do with a command that a server answered with an error reply.
struct Reroute {
    enum class Action {
        reply,    // nothing to do: the reply is the answer
        resend,   // send it again, to the server connection_for() names now
        redirect, // send it to the server `redirect` names (ASKING first for ASK)
        fail,     // answer `error` instead
    };
    Action action = Action::reply;
    std::optional<Redirect> redirect; // its host filled in: never empty
    Error error;
};

// How dlock reaches the servers of one kind of deployment, and what it does when they answer
// that a command belongs elsewhere. One implementation per kind, made by make_topology:
// - DirectTopology: one server (or the seeds of a Cluster not yet recognised as one);
// - SentinelTopology: the master the sentinels name, asked for again after a failover;
// - ClusterTopology: the owner of each key's slot, learned from MOVED replies.
// A direct deployment becomes a Cluster on the first MOVED reply or CLUSTER SHARDS answer: the
// DirectTopology then offers its successor(), which takes its connections over.
class Topology {
  public:
    explicit Topology(const Deployment& deployment) : deployment_(&deployment) {}
    virtual ~Topology() = default;
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    // "direct", "sentinel" or "cluster".
    virtual std::string_view kind() const = 0;

    // The connection for a command on `key` (nullopt: no key; the master, or in a Cluster the
    // server we talk to by default), connected and the master found first when needed.
    virtual Result<Connection*> connection_for(std::optional<std::string_view> key) = 0;
    // The connection to the server that `redirect` names (its host filled in), connecting on
    // demand.
    virtual Result<Connection*> connection_to(const Redirect& redirect) = 0;
    // `conn` answered an error reply (neither transient nor breaking it): what to do next.
    // Connections handed out before stay valid unless the answer is resend.
    virtual Reroute after_error(const Error& error, Connection& conn, Attempts& attempts) = 0;
    // `conn` failed (broken, or its server no master): it is closed, and whatever the
    // deployment knew from it is forgotten.
    virtual void failed(Connection* conn) = 0;
    // Checks that the master has not moved (Sentinel), unless that was done less than
    // `max_age` ago; see SentinelTopology. Call it before taking connections, never between.
    virtual void confirm_master(Millis max_age) { (void)max_age; }
    // Every master of the deployment (for SCAN).
    virtual Result<std::vector<Connection*>> masters() = 0;
    // A Cluster recognised (see above); nullptr until then, and for other kinds.
    virtual std::unique_ptr<Topology> successor() { return nullptr; }

    // --min-replicas as it applies now: `auto` is, for taking a lease, every replica the
    // sentinels last listed as up and replicating, and for extending one, 1 of them (0 outside
    // Sentinel). Taking needs them all: the promoted replica must have every lease and token,
    // and a master a failover left behind must not grant one. Extending a lease already on the
    // replicas needs one: after a failover a replica still resyncing (listed as up by a
    // sentinel that has not refreshed it) must not stop a holder whose lease the new master has.
    Replication replication(bool extending) const;

    const Deployment& deployment() const { return *deployment_; }

  protected:
    // Replicas `auto` counts on (see replication()).
    virtual int live_replicas() const { return 0; }

    // MOVED or ASK from `conn`: redirect to its server (the host of `conn` when it names
    // none), at most 5 times in a row.
    static Reroute follow(Redirect to, const Error& error, const Connection& conn,
                          Attempts& attempts);
    // TRYAGAIN or CLUSTERDOWN: the same command after a pause, doubling from 10 ms to 200 ms,
    // until the command timeout.
    static Reroute back_off(const Error& error, const Connection& conn, Attempts& attempts);
    // UNBLOCKED: a failover demoted the server under our BLPOP: `conn` failed, and the command
    // is sent again (at most 5 times in a row) where connection_for() says now.
    Reroute resend_unblocked(const Error& error, Connection& conn, Attempts& attempts);
    // What TRYAGAIN/CLUSTERDOWN (back_off) and UNBLOCKED (resend_unblocked) mean under every
    // kind; none for any other error.
    std::optional<Reroute> pause_or_resend(const Error& error, Connection& conn,
                                           Attempts& attempts);
    // READONLY or MASTERDOWN from `conn`, a master demoted a moment ago: `conn` failed, and the
    // command fails, transient.
    Reroute demoted(const Error& error, Connection& conn);
    static Reroute fail_with(Error error);

  private:
    const Deployment* deployment_;
};

// The implementation for `deployment`'s kind.
std::unique_ptr<Topology> make_topology(const Deployment& deployment);

} // namespace dlock::redis
