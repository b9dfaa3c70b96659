#pragma once

#include "util/error.hpp"

#include <atomic>
#include <csignal>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::process {

struct SpawnOptions {
    std::vector<std::string> argv; // argv[0] is looked up in PATH
    sigset_t child_mask;           // signal mask the command starts with
    bool take_terminal = false;    // make the command the terminal's foreground group
    // Where the child publishes its process group before it execs (see Guardian::group()).
    std::atomic<pid_t>* announce_group = nullptr;
};

// Forks and execs the command as the leader of a new process group. The child dies with
// SIGKILL if dlock dies (PR_SET_PDEATHSIG), since nothing would renew the lease.
// Exec failures come back as errors with exit code 127 (not found) or 126 (not executable),
// after the failed child has been reaped. A failure to set the child up before its exec
// (process group, PDEATHSIG, signal mask) is exit code 70, "cannot start the command: STEP:
// REASON", and the command never runs.
Result<pid_t> spawn(const SpawnOptions& options);

} // namespace dlock::process
