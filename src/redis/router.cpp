#include "redis/router.hpp"

#include "redis/cluster_slot.hpp"
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

// One element of a CLUSTER SHARDS node, by field name; nullopt when absent.
std::optional<ReplyView> field(ReplyView map, std::string_view name) {
    for (size_t i = 0; i + 1 < map.size(); i += 2)
        if (map[i].str() == name)
            return map[i + 1];
    return std::nullopt;
}

// "ERR This instance has cluster support disabled": one server, no Cluster.
bool cluster_disabled(const Error& error) {
    return !error.transient && error.message.find("cluster support disabled") != std::string::npos;
}

} // namespace

Router::Router(Deployment deployment) : deployment_(std::move(deployment)) {
    if (deployment_.kind == Deployment::Kind::sentinel) {
        sentinels_.emplace(deployment_);
    } else {
        for (const auto& seed : deployment_.nodes)
            nodes_.push_back(std::make_unique<Node>(Node{seed, std::nullopt}));
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
        nodes_.clear(); // ask again: a broken connection may mean a failover
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
                nodes_.push_back(std::make_unique<Node>(Node{*found, std::move(*opened)}));
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
        const int16_t owner = (*slots_)[key_slot(*key)];
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

size_t Router::node_at(std::string_view host, int port) {
    for (size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i]->endpoint.host == host && nodes_[i]->endpoint.port == port)
            return i;
    Endpoint endpoint = deployment_.nodes.front(); // credentials and TLS of the seeds
    endpoint.host = std::string(host);
    endpoint.port = port;
    endpoint.unix_path.clear();
    nodes_.push_back(std::make_unique<Node>(Node{std::move(endpoint), std::nullopt}));
    return nodes_.size() - 1;
}

Result<void> Router::moved(const Redirect& redirect, const Connection& replied) {
    if (sentinels_)
        return fail(exit_code::internal, "a sentinel-managed master redirected a command (MOVED): "
                                         "use a redis:// URL for a Redis Cluster");
    if (!slots_) {
        // (A database other than 0 never gets here: a Cluster node refuses SELECT, see
        // Connection::open.)
        slots_ = std::make_unique<std::array<int16_t, 16384>>();
        slots_->fill(kUnknown);
        log::debug("{} is a Redis Cluster", replied.options().endpoint.display());
    }
    const auto& host = redirect.host.empty() ? replied.options().endpoint.host : redirect.host;
    (*slots_)[redirect.slot] = static_cast<int16_t>(node_at(host, redirect.port));
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
        nodes_.clear();
}

Replication Router::replication() const {
    Replication r = deployment_.replication;
    if (r.automatic)
        r.min_replicas = sentinels_ && sentinels_->live_replicas() > 0 ? 1 : 0;
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
        nodes_.clear();
    }
}

Result<bool> Router::learn_cluster_masters(Connection& conn) {
    auto shards = conn.command({"CLUSTER", "SHARDS"});
    // Only an error reply (a server before Redis 7) is worth a CLUSTER SLOTS; a failed
    // connection (a TLS server refusing us is not transient) keeps its own reason.
    if (!shards && (shards.error().transient || conn.broken() || cluster_disabled(shards.error())))
        return tl::unexpected(shards.error());
    const bool tls = deployment_.nodes.front().tls;
    std::vector<std::pair<std::pair<int, int>, std::pair<std::string, int>>> ranges;
    if (shards) {
        for (size_t s = 0; s < shards->size(); ++s) {
            const auto shard = (*shards)[s];
            const auto slots = field(shard, "slots");
            const auto members = field(shard, "nodes");
            if (!slots || !members)
                continue;
            for (size_t n = 0; n < members->size(); ++n) {
                const auto node = (*members)[n];
                const auto role = field(node, "role");
                if (!role || role->str() != "master")
                    continue;
                auto host = field(node, "endpoint");
                if (!host || host->str().empty() || host->str() == "?")
                    host = field(node, "ip");
                auto port = tls ? field(node, "tls-port") : field(node, "port");
                if (!port)
                    port = field(node, "port");
                if (!host || !port)
                    continue;
                for (size_t r = 0; r + 1 < slots->size(); r += 2)
                    ranges.push_back(
                        {{static_cast<int>((*slots)[r].as_int()),
                          static_cast<int>((*slots)[r + 1].as_int())},
                         {std::string(host->str()), static_cast<int>(port->as_int())}});
            }
        }
    } else {
        auto slots = conn.command({"CLUSTER", "SLOTS"}); // before Redis 7
        if (!slots && cluster_disabled(slots.error()))
            return false;
        TRY(slots);
        for (size_t i = 0; i < slots->size(); ++i) {
            const auto range = (*slots)[i];
            if (range.size() < 3 || range[2].size() < 2)
                continue;
            ranges.push_back(
                {{static_cast<int>(range[0].as_int()), static_cast<int>(range[1].as_int())},
                 {std::string(range[2][0].str()), static_cast<int>(range[2][1].as_int())}});
        }
    }
    if (ranges.empty())
        return fail(exit_code::internal,
                    fmt::format("{} named no Cluster masters", conn.options().endpoint.display()));
    if (!slots_) {
        slots_ = std::make_unique<std::array<int16_t, 16384>>();
        slots_->fill(kUnknown);
    }
    for (const auto& [range, where] : ranges) {
        const auto host = where.first.empty() ? conn.options().endpoint.host : where.first;
        const auto index = static_cast<int16_t>(node_at(host, where.second));
        for (int slot = std::max(range.first, 0); slot <= range.second && slot < 16384; ++slot)
            (*slots_)[static_cast<size_t>(slot)] = index;
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
    std::vector<size_t> owners;
    for (const int16_t owner : *slots_)
        if (owner != kUnknown &&
            std::find(owners.begin(), owners.end(), static_cast<size_t>(owner)) == owners.end())
            owners.push_back(static_cast<size_t>(owner));
    std::vector<Connection*> out;
    for (const size_t owner : owners) {
        TRY_ASSIGN(Connection * conn, open(*nodes_[owner]));
        out.push_back(conn);
    }
    return out;
}

} // namespace dlock::redis
