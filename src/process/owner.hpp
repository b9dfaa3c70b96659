#pragma once

#include "util/error.hpp"

#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::process {

// A process that dlock does not own (not its child), watched through a pidfd: its exit makes the
// descriptor readable (no polling), and a signal sent through it can never reach another
// process that was given the same pid later. With it, its process group as it was when opened:
// the job the process belongs to (under cron, the whole job; under job control, the shell's job).
class Owner {
  public:
    // The process `pid`: a usage error when there is no such process, or for pid 1 (init never
    // exits, so the lock would be kept until a release) and pid 0.
    static Result<Owner> open(pid_t pid);
    Owner(Owner&& other) noexcept;
    Owner& operator=(Owner&&) = delete;
    Owner(const Owner&) = delete;
    ~Owner();

    pid_t pid() const { return pid_; }
    int fd() const { return fd_; } // readable once the process has exited
    bool alive() const;
    // Sends `signal`; false when the process has gone already.
    bool signal(int signal) const;
    // Whether this process may signal it (a process of another user may not).
    bool can_signal() const;
    // 0 when its group cannot be signalled as one (a container's first process): then the group
    // calls below reach the process alone.
    pid_t group() const { return group_; }
    // Sends `signal` to the whole group, and to the process itself should it have left it.
    void signal_group(int signal) const;
    // Some process of the group is still there.
    bool group_alive() const;
    // Its command line as /proc shows it, one word per argument ("" when unreadable).
    std::vector<std::string> argv() const;

  private:
    Owner(pid_t pid, int fd, pid_t group) : pid_(pid), fd_(fd), group_(group) {}
    pid_t pid_;
    int fd_;
    pid_t group_;
};

} // namespace dlock::process
