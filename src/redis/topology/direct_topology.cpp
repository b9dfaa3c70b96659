#include "redis/topology/direct_topology.hpp"

#include "redis/protocol/server_error.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::redis {

DirectTopology::DirectTopology(const Deployment& deployment)
    : Topology(deployment), nodes_(deployment) {
    for (const auto& seed : deployment.nodes)
        nodes_.add(seed);
}

Result<Connection*> DirectTopology::connection_for(std::optional<std::string_view> /*key*/) {
    return nodes_.open_default();
}

Result<Connection*> DirectTopology::connection_to(const Redirect& redirect) {
    return nodes_.open(nodes_.node_at(redirect.host, redirect.port));
}

ClusterTopology& DirectTopology::become_cluster() {
    if (!cluster_)
        cluster_ = std::make_unique<ClusterTopology>(deployment(), std::move(nodes_));
    return *cluster_;
}

Reroute DirectTopology::after_error(const Error& error, Connection& conn, Attempts& attempts) {
    const std::string& message = error.message;
    if (auto to = redirect_of(error)) {
        Reroute next = follow(std::move(*to), error, conn, attempts);
        if (next.redirect && !next.redirect->ask) {
            log::debug("{} is a Redis Cluster", conn.options().endpoint.display());
            become_cluster().moved(*next.redirect, conn.options().endpoint);
        }
        return next;
    }
    if (auto again = pause_or_resend(error, conn, attempts))
        return *again;
    if (not_master(error)) {
        // A replica named by the URL will not become the master by retrying.
        const auto where = conn.options().endpoint.display();
        failed(&conn);
        return fail_with(Error{Fault::unavailable,
                               fmt::format("Redis at {} is a replica, not the master ({}): "
                                           "--redis must name the master",
                                           where, message),
                               false});
    }
    return {};
}

void DirectTopology::failed(Connection* conn) {
    nodes_.release(conn);
}

Result<std::vector<Connection*>> DirectTopology::masters() {
    TRY_ASSIGN(Connection * first, nodes_.open_default());
    TRY_ASSIGN(auto ranges, cluster_masters(*first, deployment()));
    if (!ranges)
        return std::vector<Connection*>{first}; // one server: the same single round trip
    return become_cluster().learned(*ranges, first->options().endpoint);
}

} // namespace dlock::redis
