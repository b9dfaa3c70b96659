#pragma once

// Helpers for the end-to-end tests against a private Redis Cluster (tests/support/
// redis_cluster.hpp): dlock runs with a cluster URL, holders, and their marker files.

#include "e2e/e2e_helpers.hpp"
#include "support/redis_cluster.hpp"

namespace dlock::test::e2e {

// As start_holder (e2e_helpers.hpp), through `url`: returns once it holds NAME.
inline std::unique_ptr<Process> start_cluster_holder(const RedisCluster& cluster,
                                                     const std::string& url, const TempDir& dir,
                                                     const std::string& name,
                                                     std::vector<std::string> run_options = {}) {
    auto holder = start_holder_on(url, dir, name, std::move(run_options));
    REQUIRE(cluster.exists(key(name)));
    return holder;
}

// One name per master of `cluster`, in the masters' order.
inline std::vector<std::string> names_on_every_master(const RedisCluster& cluster,
                                                      std::string_view stem) {
    std::vector<std::string> out;
    for (int master : cluster.masters())
        out.push_back(cluster.name_on(master, stem));
    return out;
}

// A critical section that logs "start <pid>" and "end <pid>" to $D/log around `inside`.
inline std::string logged_section(const std::string& inside) {
    return "echo \"start $$\" >> \"$D/log\"; " + inside + "; echo \"end $$\" >> \"$D/log\"";
}

// Checks that the log of logged_section has `count` start/end pairs, none inside another.
inline void check_no_overlap(const std::string& log_path, size_t count) {
    const auto log = lines(read_file(log_path));
    INFO("log:\n" << read_file(log_path));
    REQUIRE(log.size() == 2 * count);
    for (size_t i = 0; i < log.size(); i += 2) {
        CHECK(log[i].rfind("start ", 0) == 0);
        CHECK(log[i + 1] == "end " + log[i].substr(6));
    }
}

} // namespace dlock::test::e2e
