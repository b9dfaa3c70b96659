#include "redis/topology/cluster_topology.hpp"

#include "redis/protocol/server_error.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::redis {
namespace {

// "ERR This instance has cluster support disabled": one server, no Cluster.
bool cluster_disabled(const Error& error) {
    return !error.transient && is_code(error, ServerErrorCode::cluster_disabled);
}

} // namespace

ClusterTopology::ClusterTopology(const Deployment& deployment, NodePool nodes)
    : Topology(deployment), nodes_(std::move(nodes)) {}

Result<Connection*> ClusterTopology::connection_for(std::optional<std::string_view> key) {
    if (key) {
        if (const auto owner = slots_.owner(key_slot(*key))) {
            auto conn = nodes_.open(*owner);
            if (conn)
                return conn;
            // Its master may have failed over: the other nodes will redirect us.
            slots_.forget(*owner);
            if (*owner == nodes_.default_node())
                nodes_.skip_default();
        }
    }
    return nodes_.open_default();
}

Result<Connection*> ClusterTopology::connection_to(const Redirect& redirect) {
    return nodes_.open(nodes_.node_at(redirect.host, redirect.port));
}

void ClusterTopology::moved(const Redirect& redirect, const Endpoint& replied) {
    // (A database other than 0 never gets here: a Cluster node refuses SELECT, see
    // Connection::open.)
    const auto& host = redirect.host.empty() ? replied.host : redirect.host;
    const size_t owner = nodes_.node_at(host, redirect.port);
    slots_.assign(redirect.slot, redirect.slot, owner); // parse_redirect checked the slot
}

Reroute ClusterTopology::after_error(const Error& error, Connection& conn, Attempts& attempts) {
    if (auto to = redirect_of(error)) {
        Reroute next = follow(std::move(*to), error, conn, attempts);
        if (next.redirect && !next.redirect->ask)
            moved(*next.redirect, conn.options().endpoint);
        return next;
    }
    if (auto again = pause_or_resend(error, conn, attempts))
        return *again;
    if (not_master(error)) // a master demoted a moment ago
        return demoted(error, conn);
    return {};
}

void ClusterTopology::failed(Connection* conn) {
    nodes_.release(conn);
}

Result<std::vector<Connection*>> ClusterTopology::learned(const std::vector<SlotRange>& ranges,
                                                          const Endpoint& from) {
    for (const auto& range : ranges) {
        const size_t owner =
            nodes_.node_at(range.host.empty() ? from.host : range.host, range.port);
        // The parsers checked every slot is in 0..16383.
        slots_.assign(static_cast<uint16_t>(range.first), static_cast<uint16_t>(range.last), owner);
    }
    std::vector<Connection*> out;
    for (const size_t owner : slots_.owners()) {
        TRY_ASSIGN(Connection * conn, nodes_.open(owner));
        out.push_back(conn);
    }
    return out;
}

Result<std::vector<Connection*>> ClusterTopology::masters() {
    TRY_ASSIGN(Connection * first, nodes_.open_default());
    TRY_ASSIGN(auto ranges, cluster_masters(*first, deployment()));
    if (!ranges) // once a Cluster, now one server: the same single round trip
        return std::vector<Connection*>{first};
    return learned(*ranges, first->options().endpoint);
}

std::optional<Endpoint> ClusterTopology::owner(uint16_t slot) const {
    if (const auto node = slots_.owner(slot))
        return nodes_.endpoint(*node);
    return std::nullopt;
}

Result<std::optional<std::vector<SlotRange>>> cluster_masters(Connection& conn,
                                                              const Deployment& deployment) {
    using Ranges = std::optional<std::vector<SlotRange>>;
    auto shards = conn.command({"CLUSTER", "SHARDS"});
    if (!shards && cluster_disabled(shards.error()))
        return Ranges{};
    // Only an error reply (a server before Redis 7) is worth a CLUSTER SLOTS; a failed
    // connection (a TLS server refusing us is not transient) keeps its own reason.
    if (!shards && (shards.error().transient || conn.broken()))
        return tl::unexpected(shards.error());
    const Endpoint& from = conn.options().endpoint;
    Result<std::vector<SlotRange>> ranges = tl::unexpected(Error{});
    if (shards) {
        ranges = parse_cluster_shards(*shards, deployment.nodes.front().tls, from);
    } else {
        auto slots = conn.command({"CLUSTER", "SLOTS"}); // before Redis 7
        if (!slots && cluster_disabled(slots.error()))
            return Ranges{};
        TRY(slots);
        ranges = parse_cluster_slots(*slots, from);
    }
    TRY(ranges);
    if (ranges->empty())
        return fail(Fault::internal, fmt::format("{} named no Cluster masters", from.display()));
    return Ranges{std::move(*ranges)};
}

} // namespace dlock::redis
