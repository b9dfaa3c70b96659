#include "redis/topology/node_pool.hpp"

namespace dlock::redis {

Connection* NodePool::live(size_t index) const {
    auto& conn = nodes_[index]->conn;
    return conn && !conn->broken() ? &*conn : nullptr;
}

Result<Connection*> NodePool::open(size_t index) {
    Node& node = *nodes_[index];
    if (node.conn && node.conn->broken())
        node.conn.reset();
    if (node.conn)
        return &*node.conn;
    auto opened = Connection::open(deployment_->connect_to(node.endpoint));
    if (!opened) {
        // Not even connected, and never was: Redis is down or the URL wrong (a connection
        // reset during AUTH is transient: Redis is there).
        if (!reached_ && opened.error().unreachable)
            opened.error().transient = false;
        return tl::unexpected(opened.error());
    }
    node.conn.emplace(std::move(*opened));
    reached_ = true;
    return &*node.conn;
}

size_t NodePool::node_at(std::string_view host, int port) {
    if (const auto it = index_.find({std::string(host), port}); it != index_.end())
        return it->second;
    Endpoint endpoint = deployment_->nodes.front(); // credentials and TLS of the seeds
    endpoint.host = std::string(host);
    endpoint.port = port;
    endpoint.unix_path.clear();
    return add(std::move(endpoint));
}

size_t NodePool::add(Endpoint endpoint, std::optional<Connection> conn) {
    if (conn)
        reached_ = true;
    // A unix-socket seed has no address a redirect could name: first come, first kept.
    index_.emplace(std::pair{endpoint.host, endpoint.port}, nodes_.size());
    nodes_.push_back(std::make_unique<Node>(Node{std::move(endpoint), std::move(conn)}));
    return nodes_.size() - 1;
}

void NodePool::clear() {
    nodes_.clear();
    index_.clear();
}

void NodePool::release(const Connection* conn) {
    for (auto& node : nodes_)
        if (node->conn && &*node->conn == conn)
            node->conn.reset();
}

Result<Connection*> NodePool::open_default() {
    Result<Connection*> first = open(default_);
    if (first || nodes_.size() == 1)
        return first;
    for (size_t i = 1; i < nodes_.size(); ++i) {
        const size_t candidate = (default_ + i) % nodes_.size();
        if (auto conn = open(candidate)) {
            default_ = candidate;
            return conn;
        }
    }
    return first;
}

} // namespace dlock::redis
