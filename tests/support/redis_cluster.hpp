#pragma once

#include "redis/protocol/reply.hpp"
#include "support/redis_process.hpp"
#include "util/error.hpp"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

// A private Redis Cluster: 3 masters (slots 0-5460, 5461-10922, 10923-16383) each with one
// replica, on free TCP ports of 127.0.0.1 (bus ports below 32768: in the ephemeral range an
// outgoing connection may hold one), node timeout 1 s, no persistence, each node in its own
// temp dir. Ready in about 2.3 s. Never the system Redis; only its own processes are stopped.
class RedisCluster {
  public:
    static constexpr int kMasters = 3;

    // nullptr when redis-server is not installed (see REQUIRE_CLUSTER).
    static std::unique_ptr<RedisCluster> start();
    // The cluster the test cases of this test binary share: started on first use, stopped at
    // exit, started anew when a test damaged it (damaged()). nullptr without redis-server.
    static RedisCluster* shared();
    ~RedisCluster();
    RedisCluster(const RedisCluster&) = delete;
    RedisCluster& operator=(const RedisCluster&) = delete;

    // The next shared() starts a new cluster: call before killing a node, migrating a slot...
    void damaged() { damaged_ = true; }

    static std::string url(int port) { return "redis://127.0.0.1:" + std::to_string(port); }
    // "redis://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3": the three masters as started.
    std::string seeds_url() const;
    // Every node's port: the masters as started first, then replica i of master i.
    const std::vector<int>& ports() const { return ports_; }

    // The topology as the running nodes see it now (CLUSTER NODES of the first that answers).
    std::vector<int> masters() const; // the masters serving slots, by their first slot
    int owner(uint16_t slot) const;   // the master serving `slot`
    int replica_of(int master) const; // its replica (0: none)
    std::string id(int port) const;   // CLUSTER MYID
    int owner_of_name(std::string_view name) const;
    // A lock name, `stem` followed by a number, whose slot master `port` serves.
    std::string name_on(int port, std::string_view stem = "n") const;

    Result<redis::Reply> try_cmd(int port, std::initializer_list<std::string_view> args) const;
    // Runs one command on the node at `port`; fails the test on error.
    redis::Reply cmd(int port, std::initializer_list<std::string_view> args) const;
    // Whether the lock (or any key) `key` exists on its master.
    bool exists(const std::string& key) const;

    // ROLE says master.
    bool is_master(int port) const;
    // The replica has applied everything its master wrote so far (replication offsets).
    bool caught_up(int master, int replica) const;
    // Blocked clients (BLPOP) on the node.
    int64_t blocked_clients(int port) const;

    pid_t pid(int port) const;
    // SIGKILL to one node, waited for (marks the cluster damaged).
    void kill(int port);
    // Waits until every running node says cluster_state:ok, knows every other, all agree on
    // which master serves which slot, and every running replica's link to its master is up.
    bool wait_stable(std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

    // Moves `slot` to master `to` as redis-cli --cluster reshard does, one step at a time so
    // that a test can act in between: IMPORTING on the target, MIGRATING on the source;
    // MIGRATE of the slot's keys; SETSLOT NODE on the target, the source, then the other
    // masters. The cluster counts as damaged until the migration ended and all nodes agree.
    void begin_migration(uint16_t slot, int to);
    void migrate_keys(uint16_t slot, int from, int to);
    void end_migration(uint16_t slot, int from, int to);

  private:
    RedisCluster() = default;
    struct Node {
        int port = 0;
        int bus_port = 0;
        pid_t pid = -1;
        std::string dir;
    };
    bool launch(Node& node);
    bool create();
    void stop();
    std::vector<std::string> nodes_lines(int port) const;

    std::string dir_;
    std::vector<Node> nodes_;
    std::vector<int> ports_;
    bool damaged_ = false;
};

} // namespace dlock::test

// Gets the shared cluster into `var` (a RedisCluster*); without redis-server the test is skipped
// with a message, except under CI, where it fails.
#define REQUIRE_CLUSTER(var)                                                                       \
    ::dlock::test::RedisCluster* var = ::dlock::test::RedisCluster::shared();                      \
    DLOCK_SKIP_UNLESS_STARTED(var, "redis-server", "Redis Cluster")
