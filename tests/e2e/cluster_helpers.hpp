#pragma once

// Helpers for the end-to-end tests against a private Redis Cluster (tests/support/
// redis_cluster.hpp): dlock runs with a cluster URL, holders, and their marker files.

#include "e2e/e2e_helpers.hpp"
#include "support/redis_cluster.hpp"

namespace dlock::test::e2e {

// Runs `dlock --redis URL ARGS...` to completion.
inline ProcessResult run_on(const std::string& url, std::vector<std::string> args,
                            const Env& env = {}, milliseconds timeout = 30s) {
    return run_raw(with_redis_url(url, std::move(args)), env, timeout);
}

// Starts `dlock --redis URL ARGS...` in the background.
inline std::unique_ptr<Process> start_on(const std::string& url, std::vector<std::string> args,
                                         const Env& env = {}) {
    return std::make_unique<Process>(with_redis_url(url, std::move(args)), clean_env(env));
}

// As start_holder (e2e_helpers.hpp), through `url`: returns once the holder's command runs.
inline std::unique_ptr<Process> start_cluster_holder(const RedisCluster& cluster,
                                                     const std::string& url, const TempDir& dir,
                                                     const std::string& name,
                                                     std::vector<std::string> run_options = {}) {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), run_options.begin(), run_options.end());
    args.insert(args.end(), {name, "-c",
                             "echo $$ > \"$D/" + name + ".held\"; echo $DLOCK_FENCING_TOKEN > " +
                                 "\"$D/token-" + name + "\"; " + kAwaitGo});
    auto holder = start_on(url, args, {{"D", dir.path()}});
    wait_for_line(dir / (name + ".held"), 20s);
    wait_for_line(dir / ("token-" + name), 20s);
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
