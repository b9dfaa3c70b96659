#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/topology/deployment.hpp"

#include <optional>

namespace dlock::redis {

// Asks the sentinels of a redis-sentinel:// deployment where its master is, following Redis'
// guidelines for Sentinel clients: each sentinel in turn, with a short timeout, starting with the
// one that answered last; its connection is kept for the next question.
class SentinelClient {
  public:
    explicit SentinelClient(const Deployment& deployment) : deployment_(deployment) {}

    // The master's endpoint, with the master's credentials, database and TLS. When no sentinel
    // answers, an `unavailable` error giving each sentinel's reason.
    Result<Endpoint> master();
    // With --min-replicas auto: how many replicas of the master the sentinel that named it
    // last considers up and replicating (see count_live_replicas).
    int live_replicas() const { return live_replicas_; }

  private:
    Result<Endpoint> ask(const Endpoint& sentinel);

    const Deployment& deployment_;
    std::optional<Connection> conn_; // to nodes[current_]
    size_t current_ = 0;
    int live_replicas_ = 0;
};

} // namespace dlock::redis
