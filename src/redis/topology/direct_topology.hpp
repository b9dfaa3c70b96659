#pragma once

#include "redis/topology/cluster_topology.hpp"
#include "redis/topology/node_pool.hpp"
#include "redis/topology/topology.hpp"

#include <memory>

namespace dlock::redis {

// A redis:// or unix:// URL: one server, or the seeds of a Redis Cluster, tried in order. A
// Cluster is recognised from its first MOVED reply (no probe: a standalone server never sends
// one), or when masters() asks for its shards; successor() is then the ClusterTopology taking
// the connections over. A replica answering READONLY is an error of the URL.
class DirectTopology : public Topology {
  public:
    explicit DirectTopology(const Deployment& deployment);

    std::string_view kind() const override { return "direct"; }
    Result<Connection*> connection_for(std::optional<std::string_view> key) override;
    Result<Connection*> connection_to(const Redirect& redirect) override;
    Reroute after_error(const Error& error, Connection& conn, Attempts& attempts) override;
    void failed(Connection* conn) override;
    Result<std::vector<Connection*>> masters() override;
    std::unique_ptr<Topology> successor() override { return std::move(cluster_); }

  private:
    // The Cluster this turned out to be: `nodes_` moves into it.
    ClusterTopology& become_cluster();

    NodePool nodes_;
    std::unique_ptr<ClusterTopology> cluster_;
};

} // namespace dlock::redis
