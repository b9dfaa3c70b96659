#include "redis/topology/sentinel_topology.hpp"

#include "redis/protocol/server_error.hpp"
#include "util/log.hpp"

#include <fmt/format.h>
#include <thread>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxResends = 5;
// While a failover is under way the sentinels may still name the old master, or the new one may
// not have switched its role yet: asked again this often, within the connect timeout.
constexpr Millis kResolvePause{100};

} // namespace

SentinelTopology::SentinelTopology(const Deployment& deployment)
    : Topology(deployment), nodes_(deployment), sentinels_(deployment) {}

Result<Connection*> SentinelTopology::open_master() {
    if (!nodes_.empty()) {
        if (Connection* conn = nodes_.live(0))
            return conn;
        nodes_.clear(); // ask again: a broken connection may mean a failover
    }
    const auto deadline = Clock::now() + deployment().connect_timeout;
    for (;;) {
        auto found = sentinels_.master();
        Result<Connection*> conn = tl::unexpected(Error{});
        if (found) {
            ConnectOptions options = deployment().connect_to(*found);
            options.expect_master = true;
            auto opened = Connection::open(options);
            if (opened) {
                log::debug("sentinel: master {} is at {}", deployment().master_name,
                           found->display());
                nodes_.add(*found, std::move(*opened));
                asked_at_ = Clock::now();
                return nodes_.live(0);
            }
            conn = tl::unexpected(opened.error());
        } else {
            conn = tl::unexpected(found.error());
        }
        // Mid-failover (not a master yet), or the master just restarted: ask again shortly.
        // Nothing reached yet at all: Redis is down or the URL wrong, reported at once.
        if (!nodes_.reached() && !found)
            conn.error().transient = false;
        if (!conn.error().transient || Clock::now() + kResolvePause >= deadline)
            return conn;
        std::this_thread::sleep_for(kResolvePause);
    }
}

Result<Connection*> SentinelTopology::connection_for(std::optional<std::string_view> /*key*/) {
    return open_master();
}

Result<Connection*> SentinelTopology::connection_to(const Redirect& redirect) {
    return nodes_.open(nodes_.node_at(redirect.host, redirect.port));
}

Reroute SentinelTopology::after_error(const Error& error, Connection& conn, Attempts& attempts) {
    const std::string& message = error.message;
    if (auto to = redirect_of(error)) {
        Reroute next = follow(std::move(*to), error, conn, attempts);
        if (next.redirect && !next.redirect->ask)
            return fail_with(Error{Fault::internal,
                                   "a sentinel-managed master redirected a command (MOVED): "
                                   "use a redis:// URL for a Redis Cluster",
                                   false});
        return next;
    }
    if (auto again = pause_or_resend(error, conn, attempts))
        return *again;
    if (not_master(error)) {
        // The master was demoted a moment ago. Nothing ran (a replica refuses every write):
        // again, on the master the sentinels name now (a bounded number of times: each
        // resolution waits for a master within the connect timeout).
        if (++attempts.redirects > kMaxResends)
            return demoted(error, conn);
        log::debug("{} is no longer the master ({}): asking the sentinels",
                   conn.options().endpoint.display(), message);
        failed(&conn);
        return Reroute{Reroute::Action::resend, std::nullopt, Error{}};
    }
    return {};
}

void SentinelTopology::failed(Connection* /*conn*/) {
    nodes_.clear(); // the master's connection with the rest
}

void SentinelTopology::confirm_master(Millis max_age) {
    if (nodes_.empty() || Clock::now() - asked_at_ < max_age)
        return;
    auto found = sentinels_.master();
    // Unanswered too: sentinels that cannot be asked now are not asked again at once.
    asked_at_ = Clock::now();
    if (!found) {
        log::debug("cannot confirm the master: {}", found.error().message);
        return;
    }
    const Endpoint& current = nodes_.endpoint(0);
    if (found->host != current.host || found->port != current.port) {
        log::info("sentinel: master {} moved from {} to {}", deployment().master_name,
                  current.display(), found->display());
        nodes_.clear();
    }
}

Result<std::vector<Connection*>> SentinelTopology::masters() {
    TRY_ASSIGN(Connection * master, open_master());
    return std::vector<Connection*>{master};
}

} // namespace dlock::redis
