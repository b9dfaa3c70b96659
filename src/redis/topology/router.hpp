#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/protocol/server_reply.hpp"
#include "redis/topology/deployment.hpp"
#include "redis/topology/sentinel.hpp"

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dlock::redis {

// Knows which server of a deployment takes a command, and keeps one connection per server:
// - one server: that one;
// - Sentinel: the master the sentinels name, checked with ROLE, asked for again whenever its
//   connection breaks or it says it is no master (READONLY), and by confirm_master();
// - Redis Cluster, recognised from its first MOVED reply: the owner of the key's slot, learned
//   from MOVED replies (the map stays empty for a standalone server, which never sends one).
// A server never reached is reported as not transient (Redis is down, or the URL is wrong);
// once one was reached, failing to connect is transient (a restart, a failover).
class Router {
  public:
    explicit Router(Deployment deployment);
    Router(const Router&) = delete;
    Router& operator=(const Router&) = delete;

    // The connection for a command on `key` (nullopt: no key; the master, or in a Cluster the
    // server we talk to by default), connected and the master found first when needed.
    Result<Connection*> connection_for(std::optional<std::string_view> key);
    // The connection to the server that `redirect` names, connecting on demand.
    Result<Connection*> connection_to(const Redirect& redirect, const Connection& replied);
    // A MOVED reply from `replied`: its slot lives at the redirect's server from now on.
    Result<void> moved(const Redirect& redirect, const Connection& replied);
    // `conn` failed (broken connection, READONLY): under Sentinel the master is asked for again
    // before the next command; in a Cluster, the slots it served are forgotten if it cannot be
    // reconnected to.
    void failed(Connection* conn);
    // Sentinel: asks the sentinels where the master is now, and drops the connection to the old
    // one if it moved (a demoted master accepts writes for seconds), unless they were asked less
    // than `max_age` ago. Other deployments: nothing. Sentinels that cannot be asked are no
    // error: the connection we have is kept. Call it before taking connections, never between:
    // dropping the old master's connection invalidates what connection_for() handed out.
    void confirm_master(Millis max_age = Millis(0));
    // Every master of the deployment: the server, or each master of a Cluster (asked with
    // CLUSTER SHARDS, or CLUSTER SLOTS before Redis 7).
    Result<std::vector<Connection*>> masters();

    bool cluster() const { return slots_ != nullptr; }
    const Deployment& deployment() const { return deployment_; }
    // --min-replicas as it applies now: `auto` is, for taking a lease, every replica the
    // sentinels last listed as up and replicating, and for extending one, 1 of them (0 outside
    // Sentinel). Taking needs them all: the promoted replica must have every lease and token,
    // and a master a failover left behind must not grant one. Extending a lease already on the
    // replicas needs one: after a failover a replica still resyncing (listed as up by a
    // sentinel that has not refreshed it) must not stop a holder whose lease the new master has.
    Replication replication(bool extending) const;

  private:
    struct Node {
        Endpoint endpoint;
        std::optional<Connection> conn;
    };
    // A slot's owner: an index into nodes_. 32 bits: a hostile topology may name more nodes
    // than an int16 holds (learn_cluster_masters refuses more than a Cluster can have).
    using NodeIndex = int32_t;
    static constexpr NodeIndex kUnknown = -1;
    using SlotTable = std::array<NodeIndex, 16384>;

    Result<Connection*> open(Node& node);
    Result<Connection*> open_default();
    Result<Connection*> open_master(); // Sentinel
    // The node at `host`:`port` (with the deployment's credentials and TLS), added if new.
    size_t node_at(std::string_view host, int port);
    void add_node(Endpoint endpoint, std::optional<Connection> conn = std::nullopt);
    void clear_nodes();
    SlotTable& slot_table(); // created empty on first use
    // Learns every slot's master from `conn` (CLUSTER SHARDS, or CLUSTER SLOTS before Redis 7);
    // false when `conn` is no Cluster node.
    Result<bool> learn_cluster_masters(Connection& conn);

    Deployment deployment_;
    std::vector<std::unique_ptr<Node>> nodes_; // stable addresses: connections are handed out
    std::map<std::pair<std::string, int>, size_t> node_index_; // host, port -> nodes_ index
    size_t default_ = 0;               // the node for no key, or an unknown slot
    std::unique_ptr<SlotTable> slots_; // Cluster: slot -> node, or kUnknown
    std::optional<SentinelClient> sentinels_;
    std::chrono::steady_clock::time_point asked_at_; // Sentinel: when they were last asked
    bool reached_ = false;                           // a server was connected to once
};

} // namespace dlock::redis
