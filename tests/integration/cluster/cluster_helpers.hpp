#pragma once

// Helpers for the tests against a private Redis Cluster (tests/support/redis_cluster.hpp):
// backends and sessions seeded from a URL, and per-node command counts.

#include "integration/lock_helpers.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/stores/lock_backend.hpp"
#include "redis/topology/deployment.hpp"
#include "support/redis_cluster.hpp"

#include <map>
#include <memory>
#include <string>

namespace dlock::test {

inline redis::Deployment deployment(const std::string& url) {
    auto parsed = redis::parse_deployment(url);
    if (!parsed)
        FAIL(parsed.error().message);
    return *parsed;
}

inline std::unique_ptr<redis::LockBackend> cluster_backend(const std::string& url) {
    return std::make_unique<redis::LockBackend>(deployment(url));
}

// Calls per command on the node at `port` (INFO commandstats), e.g. {"evalsha", 3}.
inline std::map<std::string, int64_t> command_calls(const RedisCluster& cluster, int port) {
    std::map<std::string, int64_t> out;
    const std::string text(cluster.cmd(port, {"INFO", "commandstats"}).str());
    for (size_t at = text.find("cmdstat_"); at != std::string::npos;
         at = text.find("cmdstat_", at + 1)) {
        const size_t colon = text.find(':', at), calls = text.find("calls=", at);
        out[text.substr(at + 8, colon - at - 8)] = std::stoll(text.substr(calls + 6));
    }
    return out;
}

} // namespace dlock::test
