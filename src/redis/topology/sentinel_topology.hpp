#pragma once

#include "redis/topology/node_pool.hpp"
#include "redis/topology/sentinel.hpp"
#include "redis/topology/topology.hpp"

#include <chrono>

namespace dlock::redis {

// A redis-sentinel:// URL: every command goes to the master the sentinels name, connected to
// with a ROLE check (retried within the connect timeout while a failover is under way). The
// sentinels are asked again whenever its connection breaks, when it says it is no master
// (READONLY, MASTERDOWN, UNBLOCKED: nothing ran, so the command is sent again to the master of
// now), and by confirm_master(). A redirect from it is an error: a Cluster is no Sentinel's.
class SentinelTopology : public Topology {
  public:
    explicit SentinelTopology(const Deployment& deployment);

    std::string_view kind() const override { return "sentinel"; }
    Result<Connection*> connection_for(std::optional<std::string_view> key) override;
    Result<Connection*> connection_to(const Redirect& redirect) override;
    Reroute after_error(const Error& error, Connection& conn, Attempts& attempts) override;
    // Forgets the master too: it is asked for again before the next command.
    void failed(Connection* conn) override;
    // Asks the sentinels where the master is now, and drops the connection to the old one if
    // it moved (a demoted master accepts writes for seconds), unless they were asked less than
    // `max_age` ago. Sentinels that cannot be asked are no error: the connection we have is
    // kept. Dropping the old master's connection invalidates what connection_for() handed out.
    void confirm_master(Millis max_age) override;
    // The master alone.
    Result<std::vector<Connection*>> masters() override;

  protected:
    int live_replicas() const override { return sentinels_.live_replicas(); }

  private:
    Result<Connection*> open_master();

    NodePool nodes_; // the master first, then any server an ASK named
    SentinelClient sentinels_;
    std::chrono::steady_clock::time_point asked_at_; // when the sentinels were last asked
};

} // namespace dlock::redis
