#include "redis/topology/router.hpp"

#include "redis/protocol/server_error.hpp"
#include "redis/topology/cluster_slot.hpp"
#include "redis/topology/cluster_topology.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <thread>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

// While a failover is under way the sentinels may still name the old master, or the new one may
// not have switched its role yet: asked again this often, within the connect timeout.
constexpr Millis kResolvePause{100};

// "ERR This instance has cluster support disabled": one server, no Cluster.
bool cluster_disabled(const Error& error) {
    return !error.transient && server_code(error) == ServerErrorCode::cluster_disabled;
}

} // namespace

Router::Router(Deployment deployment) : deployment_(std::move(deployment)) {
    if (deployment_.kind == Deployment::Kind::sentinel) {
        sentinels_.emplace(deployment_);
    } else {
        for (const auto& seed : deployment_.nodes)
            add_node(seed);
    }
}

Result<Connection*> Router::open(Node& node) {
    if (node.conn && node.conn->broken())
        node.conn.reset();
    if (node.conn)
        return &*node.conn;
    auto opened = Connection::open(deployment_.connect_to(node.endpoint));
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

Result<Connection*> Router::open_master() {
    if (!nodes_.empty()) {
        if (auto& node = *nodes_.front(); node.conn && !node.conn->broken())
            return &*node.conn;
        clear_nodes(); // ask again: a broken connection may mean a failover
    }
    const auto deadline = Clock::now() + deployment_.connect_timeout;
    for (;;) {
        auto found = sentinels_->master();
        Result<Connection*> conn = tl::unexpected(Error{});
        if (found) {
            ConnectOptions options = deployment_.connect_to(*found);
            options.expect_master = true;
            auto opened = Connection::open(options);
            if (opened) {
                log::debug("sentinel: master {} is at {}", deployment_.master_name,
                           found->display());
                add_node(*found, std::move(*opened));
                reached_ = true;
                asked_at_ = Clock::now();
                return &*nodes_.front()->conn;
            }
            conn = tl::unexpected(opened.error());
        } else {
            conn = tl::unexpected(found.error());
        }
        // Mid-failover (not a master yet), or the master just restarted: ask again shortly.
        // Nothing reached yet at all: Redis is down or the URL wrong, reported at once.
        if (!reached_ && !found)
            conn.error().transient = false;
        if (!conn.error().transient || Clock::now() + kResolvePause >= deadline)
            return conn;
        std::this_thread::sleep_for(kResolvePause);
    }
}

Result<Connection*> Router::open_default() {
    if (sentinels_)
        return open_master();
    // The default node first, then the others in turn: any seed of a Cluster will do.
    Result<Connection*> first = open(*nodes_[default_]);
    if (first || nodes_.size() == 1)
        return first;
    for (size_t i = 1; i < nodes_.size(); ++i) {
        const size_t candidate = (default_ + i) % nodes_.size();
        if (auto conn = open(*nodes_[candidate])) {
            default_ = candidate;
            return conn;
        }
    }
    return first;
}

Result<Connection*> Router::connection_for(std::optional<std::string_view> key) {
    if (slots_ && key) {
        const NodeIndex owner = (*slots_)[key_slot(*key)];
        if (owner != kUnknown) {
            auto conn = open(*nodes_[static_cast<size_t>(owner)]);
            if (conn)
                return conn;
            // Its master may have failed over: the other nodes will redirect us.
            for (auto& slot : *slots_)
                if (slot == owner)
                    slot = kUnknown;
            if (static_cast<size_t>(owner) == default_)
                default_ = (default_ + 1) % nodes_.size();
        }
    }
    return open_default();
}

// By address through node_index_: a topology of thousands of masters stays linear.
size_t Router::node_at(std::string_view host, int port) {
    if (const auto it = node_index_.find({std::string(host), port}); it != node_index_.end())
        return it->second;
    Endpoint endpoint = deployment_.nodes.front(); // credentials and TLS of the seeds
    endpoint.host = std::string(host);
    endpoint.port = port;
    endpoint.unix_path.clear();
    add_node(std::move(endpoint));
    return nodes_.size() - 1;
}

void Router::add_node(Endpoint endpoint, std::optional<Connection> conn) {
    // A unix-socket seed has no address a redirect could name: first come, first kept.
    node_index_.emplace(std::pair{endpoint.host, endpoint.port}, nodes_.size());
    nodes_.push_back(std::make_unique<Node>(Node{std::move(endpoint), std::move(conn)}));
}

void Router::clear_nodes() {
    nodes_.clear();
    node_index_.clear();
}

Router::SlotTable& Router::slot_table() {
    if (!slots_) {
        slots_ = std::make_unique<SlotTable>();
        slots_->fill(kUnknown);
    }
    return *slots_;
}

Result<void> Router::moved(const Redirect& redirect, const Connection& replied) {
    if (sentinels_)
        return fail(exit_code::internal, "a sentinel-managed master redirected a command (MOVED): "
                                         "use a redis:// URL for a Redis Cluster");
    // (A database other than 0 never gets here: a Cluster node refuses SELECT, see
    // Connection::open.)
    if (!slots_)
        log::debug("{} is a Redis Cluster", replied.options().endpoint.display());
    const auto& host = redirect.host.empty() ? replied.options().endpoint.host : redirect.host;
    const auto owner = static_cast<NodeIndex>(node_at(host, redirect.port));
    slot_table()[redirect.slot] = owner; // parse_redirect checked the slot
    return {};
}

Result<Connection*> Router::connection_to(const Redirect& redirect, const Connection& replied) {
    const auto& host = redirect.host.empty() ? replied.options().endpoint.host : redirect.host;
    return open(*nodes_[node_at(host, redirect.port)]);
}

void Router::failed(Connection* conn) {
    for (auto& node : nodes_)
        if (node->conn && &*node->conn == conn)
            node->conn.reset();
    if (sentinels_)
        clear_nodes();
}

Replication Router::replication(bool extending) const {
    Replication r = deployment_.replication;
    if (r.automatic) {
        r.min_replicas = sentinels_ ? sentinels_->live_replicas() : 0;
        if (extending)
            r.min_replicas = std::min(r.min_replicas, 1);
    }
    return r;
}

void Router::confirm_master(Millis max_age) {
    if (!sentinels_ || nodes_.empty() || Clock::now() - asked_at_ < max_age)
        return;
    auto found = sentinels_->master();
    // Unanswered too: sentinels that cannot be asked now are not asked again at once.
    asked_at_ = Clock::now();
    if (!found) {
        log::debug("cannot confirm the master: {}", found.error().message);
        return;
    }
    const Endpoint& current = nodes_.front()->endpoint;
    if (found->host != current.host || found->port != current.port) {
        log::info("sentinel: master {} moved from {} to {}", deployment_.master_name,
                  current.display(), found->display());
        clear_nodes();
    }
}

Result<bool> Router::learn_cluster_masters(Connection& conn) {
    auto shards = conn.command({"CLUSTER", "SHARDS"});
    // Only an error reply (a server before Redis 7) is worth a CLUSTER SLOTS; a failed
    // connection (a TLS server refusing us is not transient) keeps its own reason.
    if (!shards && (shards.error().transient || conn.broken() || cluster_disabled(shards.error())))
        return tl::unexpected(shards.error());
    const Endpoint& from = conn.options().endpoint;
    Result<std::vector<SlotRange>> ranges = tl::unexpected(Error{});
    if (shards) {
        ranges = parse_cluster_shards(*shards, deployment_.nodes.front().tls, from);
    } else {
        auto slots = conn.command({"CLUSTER", "SLOTS"}); // before Redis 7
        if (!slots && cluster_disabled(slots.error()))
            return false;
        TRY(slots);
        ranges = parse_cluster_slots(*slots, from);
    }
    TRY(ranges);
    if (ranges->empty())
        return fail(exit_code::internal,
                    fmt::format("{} named no Cluster masters", from.display()));
    SlotTable& table = slot_table();
    for (const auto& range : *ranges) {
        // At most 16384 masters (checked), so an index fits a NodeIndex.
        const auto owner = static_cast<NodeIndex>(
            node_at(range.host.empty() ? from.host : range.host, range.port));
        std::fill(table.begin() + range.first, table.begin() + range.last + 1, owner);
    }
    return true;
}

Result<std::vector<Connection*>> Router::masters() {
    TRY_ASSIGN(Connection * first, open_default());
    if (sentinels_)
        return std::vector<Connection*>{first};
    auto clustered = learn_cluster_masters(*first);
    if (!clustered && cluster_disabled(clustered.error()))
        return std::vector<Connection*>{first}; // one server: the same single round trip
    TRY(clustered);
    std::vector<size_t> owners; // each once, in slot order
    std::vector<bool> seen(nodes_.size());
    for (const NodeIndex owner : *slots_)
        if (owner != kUnknown && !seen[static_cast<size_t>(owner)]) {
            seen[static_cast<size_t>(owner)] = true;
            owners.push_back(static_cast<size_t>(owner));
        }
    std::vector<Connection*> out;
    for (const size_t owner : owners) {
        TRY_ASSIGN(Connection * conn, open(*nodes_[owner]));
        out.push_back(conn);
    }
    return out;
}

} // namespace dlock::redis
