#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/protocol/server_reply.hpp"
#include "redis/topology/deployment.hpp"
#include "redis/topology/topology.hpp"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dlock::redis {

// Holds a deployment and the Topology that serves it (see make_topology), and hands over to its
// successor when a direct deployment turns out to be a Cluster. Not movable: the topology
// refers to the deployment, and connections it handed out stay put.
class Router {
  public:
    explicit Router(Deployment deployment);
    Router(const Router&) = delete;
    Router& operator=(const Router&) = delete;

    // See Topology.
    Result<Connection*> connection_for(std::optional<std::string_view> key) {
        return topology_->connection_for(key);
    }
    Result<Connection*> connection_to(const Redirect& redirect) {
        return topology_->connection_to(redirect);
    }
    Reroute after_error(const Error& error, Connection& conn, Attempts& attempts);
    void failed(Connection* conn) { topology_->failed(conn); }
    void confirm_master(Millis max_age = Millis(0)) { topology_->confirm_master(max_age); }
    Result<std::vector<Connection*>> masters();
    Replication replication(bool extending) const { return topology_->replication(extending); }

    const Topology& topology() const { return *topology_; }
    const Deployment& deployment() const { return deployment_; }

  private:
    void take_successor();

    Deployment deployment_;
    std::unique_ptr<Topology> topology_;
};

} // namespace dlock::redis
