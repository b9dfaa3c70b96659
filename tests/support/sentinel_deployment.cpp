#include "support/sentinel_deployment.hpp"

#include "support/dlock_process.hpp"

#include <catch2/catch.hpp>
#include <charconv>
#include <fmt/format.h>

namespace dlock::test {
namespace {

using namespace std::chrono_literals;

// A field of a flat field/value array reply (SENTINEL MASTER); "" when absent.
std::string field(const redis::Reply& reply, std::string_view name) {
    for (size_t i = 0; i + 1 < reply.size(); i += 2)
        if (reply[i].str() == name)
            return std::string(reply[i + 1].str());
    return "";
}

int to_int(std::string_view text) {
    int value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

} // namespace

std::string SentinelDeployment::sentinel_config(int master_port) const {
    std::string config = fmt::format("sentinel monitor {0} 127.0.0.1 {1} 2\n"
                                     "sentinel down-after-milliseconds {0} 1000\n"
                                     "sentinel failover-timeout {0} 10000\n",
                                     kMaster, master_port);
    if (!options_.master_password.empty())
        config += fmt::format("sentinel auth-pass {} {}\n", kMaster, options_.master_password);
    return config;
}

std::unique_ptr<SentinelDeployment> SentinelDeployment::start(Options options) {
    std::unique_ptr<SentinelDeployment> d(new SentinelDeployment());
    d->options_ = std::move(options);
    const auto& password = d->options_.master_password;
    for (size_t i = 0; i < 3; ++i) {
        RedisNode::Options node{{"--repl-diskless-sync-delay", "0"}, password, false, ""};
        if (!password.empty())
            node.args.insert(node.args.end(), {"--masterauth", password});
        if (i > 0)
            node.args.insert(node.args.end(),
                             {"--replicaof", "127.0.0.1", std::to_string(d->data_.front()->port()),
                              "--replica-priority", i == 1 ? "10" : "100"});
        auto started = RedisNode::start(std::move(node));
        if (!started)
            return nullptr;
        d->data_.push_back(std::move(started));
    }
    for (size_t i = 0; i < 3; ++i)
        d->sentinels_.push_back(RedisNode::start(RedisNode::Options{
            {}, d->options_.sentinel_password, true, d->sentinel_config(d->data_[0]->port())}));
    INFO("sentinel deployment in " << d->data_[0]->dir() << " ...");
    REQUIRE(eventually([&] { return d->ready(); }, 30s));
    return d;
}

SentinelDeployment* SentinelDeployment::shared() {
    static std::unique_ptr<SentinelDeployment> deployment;
    if (deployment && deployment->failed_over_)
        deployment.reset();
    if (!deployment)
        deployment = start(shared_options());
    return deployment.get();
}

SentinelDeployment::~SentinelDeployment() {
    for (auto& s : sentinels_) // first: they would fail the master over
        s->stop();
}

std::string SentinelDeployment::url(const std::string& name) const {
    std::string hosts;
    for (const auto& s : sentinels_)
        hosts += (hosts.empty() ? "" : ",") + s->address();
    return "redis-sentinel://" + hosts + "#" + name;
}

int SentinelDeployment::master_port_named_by(size_t i) {
    auto reply = sentinels_.at(i)->try_cmd({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", kMaster});
    if (!reply || reply->size() != 2)
        return 0;
    return to_int((*reply)[1].str());
}

RedisNode& SentinelDeployment::master() {
    const int port = master_port_named_by(0);
    for (auto& node : data_)
        if (node->port() == port)
            return *node;
    FAIL("the sentinels name no master of this deployment (port " << port << ")");
    return *data_.front();
}

bool SentinelDeployment::ready() {
    const int port = master_port_named_by(0);
    for (size_t i = 0; i < sentinels_.size(); ++i) {
        if (master_port_named_by(i) != port)
            return false;
        auto state = sentinels_[i]->try_cmd({"SENTINEL", "MASTER", kMaster});
        if (!state || field(*state, "num-slaves") != "2" ||
            field(*state, "num-other-sentinels") != "2" || field(*state, "flags") != "master")
            return false;
    }
    for (auto& node : data_)
        if (node->port() != port && node->info("replication", "master_link_status") != "up")
            return false;
    return true;
}

RedisNode& SentinelDeployment::failover(std::chrono::milliseconds timeout) {
    RedisNode& old = master();
    failed_over_ = true;
    sentinels_.front()->cmd({"SENTINEL", "FAILOVER", kMaster});
    return master_after(old, timeout);
}

RedisNode& SentinelDeployment::crash_master(std::chrono::milliseconds timeout) {
    RedisNode& old = master();
    failed_over_ = true;
    old.crash();
    return master_after(old, timeout);
}

RedisNode& SentinelDeployment::master_after(const RedisNode& old,
                                            std::chrono::milliseconds timeout) {
    RedisNode* promoted = nullptr;
    const bool done = eventually(
        [&] {
            for (size_t i = 0; i < sentinels_.size(); ++i)
                if (master_port_named_by(i) == old.port() || master_port_named_by(i) == 0)
                    return false;
            promoted = &master();
            auto role = promoted->try_cmd({"ROLE"});
            return role && role->size() > 0 && (*role)[0].str() == "master";
        },
        timeout);
    INFO("failover of the master at " << old.address());
    REQUIRE(done);
    return *promoted;
}

std::unique_ptr<ReplicatedPair> ReplicatedPair::start(std::vector<std::string> master_args) {
    auto pair = std::make_unique<ReplicatedPair>();
    master_args.insert(master_args.begin(), {"--repl-diskless-sync-delay", "0"});
    pair->master = RedisNode::start(RedisNode::Options{std::move(master_args), "", false, ""});
    if (!pair->master)
        return nullptr;
    pair->replica = RedisNode::start(RedisNode::Options{
        {"--replicaof", "127.0.0.1", std::to_string(pair->master->port())}, "", false, ""});
    REQUIRE(eventually([&] { return pair->linked(); }, 20s));
    return pair;
}

bool ReplicatedPair::linked() const {
    return replica->info("replication", "master_link_status") == "up" &&
           master->info("replication", "slave0").find("state=online") != std::string::npos;
}

} // namespace dlock::test
