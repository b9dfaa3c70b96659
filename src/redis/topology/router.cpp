#include "redis/topology/router.hpp"

namespace dlock::redis {

Router::Router(Deployment deployment)
    : deployment_(std::move(deployment)), topology_(make_topology(deployment_)) {}

void Router::take_successor() {
    // The successor holds the nodes and connections: those handed out stay valid.
    if (auto next = topology_->successor())
        topology_ = std::move(next);
}

Reroute Router::after_error(const Error& error, Connection& conn, Attempts& attempts) {
    Reroute next = topology_->after_error(error, conn, attempts);
    take_successor();
    return next;
}

Result<std::vector<Connection*>> Router::masters() {
    auto out = topology_->masters();
    take_successor();
    return out;
}

} // namespace dlock::redis
