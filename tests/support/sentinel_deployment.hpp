#pragma once

#include "support/redis_node.hpp"
#include "support/redis_server.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace dlock::test {

// A Sentinel deployment for tests: 3 data nodes (a master and 2 replicas) and 3 sentinels
// monitoring the master as "mymaster" (quorum 2, down-after-milliseconds 1000, failover-timeout
// 10000), each on its own free port. Replicas sync at once (repl-diskless-sync-delay 0); data
// node 1 has the better replica-priority, so a failover from node 0 promotes node 1. Ready in
// ~2.2 s (the sentinels discover each other and the replicas).
class SentinelDeployment {
  public:
    static constexpr const char* kMaster = "mymaster";

    struct Options {
        std::string master_password;   // requirepass (and masterauth) of the data nodes
        std::string sentinel_password; // requirepass of the sentinels
    };

    // nullptr when redis-server is not installed; fails the test when it does not get ready.
    static std::unique_ptr<SentinelDeployment> start(Options options = {});
    // The deployment the test cases of one test binary share (each ctest case is a process: in
    // practice, the SECTIONs of a test case): started with both passwords on first use, stopped
    // at exit, started again when a test failed it over (mark_failed_over).
    static SentinelDeployment* shared();
    static Options shared_options() { return {"master-Pa55", "sentinel-Pa55"}; }
    ~SentinelDeployment();

    // redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#NAME
    std::string url(const std::string& name = kMaster) const;
    const Options& options() const { return options_; }
    RedisNode& data(size_t i) { return *data_.at(i); }
    RedisNode& sentinel(size_t i) { return *sentinels_.at(i); }
    // The data node the first sentinel names as the master.
    RedisNode& master();
    // The port that sentinel `i` names for the master; 0 when it does not answer.
    int master_port_named_by(size_t i);
    // SENTINEL FAILOVER; returns the new master once every sentinel names it and it answers
    // ROLE master (~1.1 s). The old master still takes writes until it is demoted (~11 s).
    RedisNode& failover(std::chrono::milliseconds timeout = std::chrono::seconds(15));
    // kill -9 of the master; returns the new master once every sentinel names it and it answers
    // ROLE master (the sentinels notice after down-after-milliseconds). The old node stays down
    // until restarted (RedisNode::restart: empty, since nothing persists).
    RedisNode& crash_master(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    // Every sentinel names the master and sees 2 replicas and 2 other sentinels; every replica's
    // link is up.
    bool ready();
    void mark_failed_over() { failed_over_ = true; }

  private:
    SentinelDeployment() = default;
    RedisNode& master_after(const RedisNode& old, std::chrono::milliseconds timeout);
    std::string sentinel_config(int master_port) const;

    Options options_;
    std::vector<std::unique_ptr<RedisNode>> data_;
    std::vector<std::unique_ptr<RedisNode>> sentinels_;
    bool failed_over_ = false;
};

// A master and one replica linked to it (repl-diskless-sync-delay 0), for --min-replicas.
struct ReplicatedPair {
    std::unique_ptr<RedisNode> master, replica;
    // nullptr when redis-server is not installed; `master_args` go to the master
    // ("--rename-command", "WAIT", "").
    static std::unique_ptr<ReplicatedPair> start(std::vector<std::string> master_args = {});
    std::string url() const { return "redis://" + master->address(); }
    // The replica's link is up and the master sees it online.
    bool linked() const;
};

} // namespace dlock::test

// Starts (or reuses) a deployment into `var`; without redis-server the test is skipped with a
// message, except under CI, where it fails. Like REQUIRE_REDIS.
#define DLOCK_REQUIRE_DEPLOYMENT_(var, expr)                                                       \
    auto var = (expr);                                                                             \
    DLOCK_SKIP_UNLESS_STARTED(var, "redis-server", "Redis")
#define REQUIRE_SENTINEL(var)                                                                      \
    DLOCK_REQUIRE_DEPLOYMENT_(var, ::dlock::test::SentinelDeployment::start())
#define REQUIRE_SHARED_SENTINEL(var)                                                               \
    DLOCK_REQUIRE_DEPLOYMENT_(var, ::dlock::test::SentinelDeployment::shared())
#define REQUIRE_REPLICATED_PAIR(var, ...)                                                          \
    DLOCK_REQUIRE_DEPLOYMENT_(var, ::dlock::test::ReplicatedPair::start(__VA_ARGS__))
