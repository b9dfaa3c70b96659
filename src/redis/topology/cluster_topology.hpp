#pragma once

#include "redis/topology/cluster_shards.hpp"
#include "redis/topology/node_pool.hpp"
#include "redis/topology/slot_map.hpp"
#include "redis/topology/topology.hpp"

#include <optional>
#include <vector>

namespace dlock::redis {

// A Redis Cluster: each command goes to the master of its key's slot, as far as the slot map
// knows it (learned from MOVED replies and CLUSTER SHARDS/SLOTS), else to the default node,
// which redirects it. MOVED and ASK are followed (ASKING first for ASK), TRYAGAIN and
// CLUSTERDOWN waited out; READONLY means a master demoted a moment ago (transient).
class ClusterTopology : public Topology {
  public:
    // Takes over the nodes (and connections) of the direct deployment it was recognised from.
    ClusterTopology(const Deployment& deployment, NodePool nodes);

    std::string_view kind() const override { return "cluster"; }
    Result<Connection*> connection_for(std::optional<std::string_view> key) override;
    Result<Connection*> connection_to(const Redirect& redirect) override;
    Reroute after_error(const Error& error, Connection& conn, Attempts& attempts) override;
    void failed(Connection* conn) override;
    Result<std::vector<Connection*>> masters() override;

    // A MOVED reply (its host filled in, or empty: the host of `replied`): its slot lives at
    // the redirect's server from now on.
    void moved(const Redirect& redirect, const Endpoint& replied);
    // The slot ranges a CLUSTER SHARDS/SLOTS reply from `from` gave: each master connected to,
    // in slot order.
    Result<std::vector<Connection*>> learned(const std::vector<SlotRange>& ranges,
                                             const Endpoint& from);
    // The server known to serve `slot`, if any.
    std::optional<Endpoint> owner(uint16_t slot) const;

  private:
    NodePool nodes_;
    SlotMap slots_;
};

// Every slot's master as `conn` names them (CLUSTER SHARDS, or CLUSTER SLOTS before Redis 7);
// nullopt when `conn` is no Cluster node ("cluster support disabled").
Result<std::optional<std::vector<SlotRange>>> cluster_masters(Connection& conn,
                                                              const Deployment& deployment);

} // namespace dlock::redis
