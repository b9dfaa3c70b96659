#pragma once

#include "util/error.hpp"

#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::process {

// A process that dlock does not own (not its child), watched through a pidfd: its exit makes the
// descriptor readable (no polling), and a signal sent through it can never reach another
// process that was given the same pid later.
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
    // Its command line as /proc shows it, one word per argument ("" when unreadable).
    std::vector<std::string> argv() const;

  private:
    Owner(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
    pid_t pid_;
    int fd_;
};

} // namespace dlock::process
