#pragma once

// A small fleet of simulated hosts for the monitoring tests: each "host" is a dlock process in
// its own UTS namespace with its own hostname (unshare --uts, which needs root), so the history,
// the run counters, `dlock check` and `dlock metrics` see runs from several machines.

#include "e2e/e2e_helpers.hpp"

#include <unistd.h>

namespace dlock::test::e2e {

// Whether this machine can simulate hosts (root and unshare(1)); a test without it skips.
inline bool can_simulate_hosts() {
    static const bool can = [] {
        if (getuid() != 0 || access("/usr/bin/unshare", X_OK) != 0)
            return false;
        Process probe({"--uts", "true"}, {}, "/usr/bin/unshare");
        return probe.wait().exit_code == 0;
    }();
    return can;
}

// Runs `dlock --redis <server> ARGS...` to completion as if on host `host`.
inline ProcessResult run_as_host(const RedisServer& server, const std::string& host,
                                 std::vector<std::string> args, const Env& env = {},
                                 milliseconds timeout = 30s) {
    std::vector<std::string> argv{"--uts", "/bin/sh",     "-c", "hostname \"$0\" && exec \"$@\"",
                                  host,    dlock_binary()};
    for (auto& a : with_redis(server, std::move(args)))
        argv.push_back(std::move(a));
    Process p(std::move(argv), clean_env(env), "/usr/bin/unshare");
    return p.wait(timeout);
}

} // namespace dlock::test::e2e
