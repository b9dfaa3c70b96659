#include "redis/topology/topology.hpp"

#include "redis/protocol/server_error.hpp"
#include "redis/topology/direct_topology.hpp"
#include "redis/topology/sentinel_topology.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <thread>

namespace dlock::redis {
namespace {

constexpr int kMaxRedirects = 5;
constexpr Millis kMaxPause{200};

} // namespace

Replication Topology::replication(bool extending) const {
    Replication r = deployment_->replication;
    if (r.automatic) {
        r.min_replicas = live_replicas();
        if (extending)
            r.min_replicas = std::min(r.min_replicas, 1);
    }
    return r;
}

Reroute Topology::follow(Redirect to, const Error& error, const Connection& conn,
                         Attempts& attempts) {
    if (++attempts.redirects > kMaxRedirects)
        return fail_with(
            Error{Fault::unavailable,
                  fmt::format("too many Cluster redirects in a row (the last: {})", error.message),
                  true});
    if (to.host.empty())
        to.host = conn.options().endpoint.host;
    Reroute next;
    next.action = Reroute::Action::redirect;
    next.redirect = std::move(to);
    return next;
}

Reroute Topology::back_off(const Error& error, const Connection& conn, Attempts& attempts) {
    if (std::chrono::steady_clock::now() + attempts.pause >= attempts.deadline)
        return fail_with(Error{Fault::unavailable,
                               fmt::format("Redis Cluster at {}: {}",
                                           conn.options().endpoint.display(), error.message),
                               true});
    log::debug("{}: retrying in {}", error.message, format_duration(attempts.pause));
    std::this_thread::sleep_for(attempts.pause);
    attempts.pause = std::min(attempts.pause * 2, kMaxPause);
    // While a slot migrates, ASK (source) and TRYAGAIN (target) alternate until it ends:
    // bounded by the deadline, not by the count of redirects.
    attempts.redirects = 0;
    return Reroute{Reroute::Action::resend, std::nullopt, Error{}};
}

Reroute Topology::resend_unblocked(const Error& error, Connection& conn, Attempts& attempts) {
    // Reconnecting: the demoted node redirects to its successor; Sentinel names the new master.
    failed(&conn);
    if (++attempts.redirects > kMaxRedirects)
        return fail_with(Error{Fault::unavailable, error.message, true});
    return Reroute{Reroute::Action::resend, std::nullopt, Error{}};
}

std::optional<Reroute> Topology::pause_or_resend(const Error& error, Connection& conn,
                                                 Attempts& attempts) {
    if (cluster_busy(error))
        return back_off(error, conn, attempts);
    if (is_code(error, ServerErrorCode::unblocked))
        return resend_unblocked(error, conn, attempts);
    return std::nullopt;
}

Reroute Topology::demoted(const Error& error, Connection& conn) {
    const auto where = conn.options().endpoint.display();
    failed(&conn);
    return fail_with(
        Error{Fault::unavailable,
              fmt::format("Redis at {} is no longer the master ({})", where, error.message), true});
}

Reroute Topology::fail_with(Error error) {
    return Reroute{Reroute::Action::fail, std::nullopt, std::move(error)};
}

std::unique_ptr<Topology> make_topology(const Deployment& deployment) {
    // The one switch on the kind: a direct URL may name a Cluster, which DirectTopology
    // recognises from its replies (see Topology::successor).
    switch (deployment.kind) {
    case Deployment::Kind::sentinel:
        return std::make_unique<SentinelTopology>(deployment);
    case Deployment::Kind::direct:
        break;
    }
    return std::make_unique<DirectTopology>(deployment);
}

} // namespace dlock::redis
