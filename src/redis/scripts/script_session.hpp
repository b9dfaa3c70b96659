#pragma once

#include "redis/protocol/connection.hpp"
#include "redis/scripts/script_runner.hpp"
#include "redis/topology/deployment.hpp"
#include "redis/topology/router.hpp"

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace dlock::redis {

// The one road from dlock to a Redis deployment: runs the embedded lua/ scripts and the few
// plain commands (BLPOP, XREVRANGE, SCAN) on the server that holds their keys, through a Router
// and the Topology of the deployment's kind (redis/topology/: one server, the master Sentinel
// names, or the right node of a Cluster). Connections open on first use (or by connect()) and
// reopen after I/O errors. An error reply goes to the topology, which says whether to answer
// it, send the command again or elsewhere, or fail: a Cluster's redirects (MOVED: the slot
// moved; ASK: ASKING, then the same command on the target) are followed at most 5 times in a
// row, TRYAGAIN and CLUSTERDOWN retried after 10 ms doubling to 200 ms, within the command
// timeout. Sentinel: a master named more than a second ago is confirmed with the sentinels
// first (a demoted master takes writes for seconds); READONLY, MASTERDOWN or UNBLOCKED from it
// (demoted: nothing ran) sends the command again to the master they name now. In a Cluster, a
// BLPOP ended by a failover (UNBLOCKED) is sent again, on a new connection.
// Errors are as from Connection, scripts' errors naming the script; a deployment never reached
// is reported as not transient (see NodePool).
class ScriptSession {
  public:
    explicit ScriptSession(Deployment deployment);

    // Connects now, so "Redis unreachable" is reported before anything else.
    Result<void> connect();

    // Runs `script` on the server of keys.front() (every key of a call is in one slot).
    Result<Reply> run(const EmbeddedScript& script, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args);
    // As run, followed by WAIT in the same round trip when --min-replicas is set (or `auto` makes
    // it 1): `acks` says how many replicas acknowledged the script's writes, `replication` how
    // many were asked for.
    ScriptReplies run_acknowledged(const EmbeddedScript& script,
                                   const std::vector<std::string_view>& keys,
                                   const std::vector<std::string_view>& args);
    // Runs the script once per call, pipelined per server: one round trip to each server involved
    // (see run_script_pipelined). One result per call, in order.
    std::vector<Result<Reply>> run_each(const EmbeddedScript& script,
                                        std::span<const ScriptCall> calls);
    // As run_each, followed on every server involved by WAIT when --min-replicas is set: `acks`
    // is then the fewest acknowledgements of any of them (or WAIT's error).
    ScriptReplies run_each_acknowledged(const EmbeddedScript& script,
                                        std::span<const ScriptCall> calls);

    // A plain command on the server of `key`.
    Result<Reply> command(std::string_view key, std::initializer_list<std::string_view> args);
    // Pops one element of list `key`, waiting up to `timeout`: true when one was popped.
    Result<bool> blpop(std::string_view key, Millis timeout);
    // As blpop: the element popped, nullopt when none was.
    Result<std::optional<std::string>> blpop_value(std::string_view key, Millis timeout);

    // Sentinel: checks with the sentinels that the master has not moved (see SentinelTopology).
    void confirm_master();
    // Every master of the deployment (for SCAN).
    Result<std::vector<Connection*>> masters();
    // The connection to the server of `key` as far as known (a Cluster's map is learned from
    // redirects and masters()); no key: the master, or a Cluster's first node.
    Result<Connection*> connection(std::optional<std::string_view> key = std::nullopt);

    const Deployment& deployment() const { return router_->deployment(); }

  private:
    // Sends with attempt(connection, asking) to the server of `key`, following redirects.
    template <typename R, typename Attempt>
    R routed(std::optional<std::string_view> key, Attempt attempt);
    // What WAIT follows the calls: none, or --min-replicas as it applies at the time to taking
    // a lease or to extending one (see Topology::replication).
    enum class Acknowledge { none, taking, extending };
    ScriptReplies pipelined(const EmbeddedScript& script, std::span<const ScriptCall> calls,
                            Acknowledge acknowledge);
    // A reply the Cluster answered with a redirect (or TRYAGAIN, or a demoted master's READONLY).
    static bool must_reroute(const Result<Reply>& reply);
    // Keeps the fewest acknowledgements, or WAIT's error.
    static void merge_acks(std::optional<Result<int64_t>>& into,
                           std::optional<Result<int64_t>> from);

    std::unique_ptr<Router> router_; // in a box: sessions move, connections stay put
};

} // namespace dlock::redis
