#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/topology/deployment.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlock::redis {

// The servers a topology talks to, one connection each, opened on demand. Nodes keep their
// address for as long as the pool holds them (connections are handed out), and the pool moves
// whole, so a direct deployment found to be a Cluster hands its connections over.
// A server never reached is reported as not transient (Redis is down, or the URL is wrong);
// once one was reached, failing to connect is transient (a restart, a failover).
class NodePool {
  public:
    explicit NodePool(const Deployment& deployment) : deployment_(&deployment) {}

    size_t size() const { return nodes_.size(); }
    bool empty() const { return nodes_.empty(); }
    const Endpoint& endpoint(size_t index) const { return nodes_[index]->endpoint; }
    // The node's connection if it has one that is not broken.
    Connection* live(size_t index) const;

    // The node's connection, (re)connected when needed.
    Result<Connection*> open(size_t index);
    // The node at `host`:`port` (with the seeds' credentials and TLS), added if new.
    size_t node_at(std::string_view host, int port);
    // Adds a node, with its connection when already open (which counts as reached).
    size_t add(Endpoint endpoint, std::optional<Connection> conn = std::nullopt);
    // Forgets every node (their connections close).
    void clear();
    // Closes `conn`, whichever node it belongs to.
    void release(const Connection* conn);

    // The default node (a seed, or the last that answered for one), then the others in turn:
    // any seed of a Cluster will do.
    Result<Connection*> open_default();
    size_t default_node() const { return default_; }
    // The default node failed: the next one becomes the default.
    void skip_default() { default_ = (default_ + 1) % nodes_.size(); }

    bool reached() const { return reached_; }

  private:
    struct Node {
        Endpoint endpoint;
        std::optional<Connection> conn;
    };

    const Deployment* deployment_;             // a pointer: pools move
    std::vector<std::unique_ptr<Node>> nodes_; // stable addresses: connections are handed out
    // host, port -> nodes_ index: a topology of thousands of masters stays linear.
    std::map<std::pair<std::string, int>, size_t> index_;
    size_t default_ = 0;
    bool reached_ = false; // a server was connected to once
};

} // namespace dlock::redis
