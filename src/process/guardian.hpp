#pragma once

#include "util/error.hpp"

#include <atomic>
#include <sys/types.h>

namespace dlock::process {

// Kills the command's process group if dlock dies without clearing up after it (SIGKILL, OOM
// killer, a crash): PR_SET_PDEATHSIG reaches only the direct child, and the lease stops being
// renewed the moment dlock is gone, so nothing of the command may outlive it.
//
// The guardian is a tiny process that shares dlock's memory (clone with CLONE_VM: no page-table
// copy, no copy-on-write faults afterwards) and blocks on the read end of a pipe whose write end
// only dlock holds. End of file means dlock is gone: it SIGKILLs the group it was given, if any,
// and exits. It sits in a process group of its own and blocks every signal but SIGKILL, so a
// signal to dlock's job (e.g. `kill -9 -PGID` of a shell script) does not take it along, and
// its name (`lockguard`) does not match `pkill dlock` or `killall dlock`. (Under valgrind,
// which cannot run such a process, there is none.)
class Guardian {
  public:
    static Result<Guardian> start();
    ~Guardian(); // the guardian exits (without killing anything once disarmed); not waited for
    Guardian(Guardian&& other) noexcept;
    Guardian(const Guardian&) = delete;
    Guardian& operator=(const Guardian&) = delete;
    Guardian& operator=(Guardian&&) = delete;

    // Where the group to kill is published. Set it from the spawned child before exec (a vfork
    // child shares this memory), so no moment exists where the command runs unguarded.
    std::atomic<pid_t>& group() const;
    // The group is gone (drained): nothing to kill any more, and its id may be reused.
    void disarm() const;
    pid_t pid() const { return pid_; }

    struct State; // shared with the guardian process

  private:
    // The last guardian that ended, until the next one ends.
    class Retired {
      public:
        void replace(pid_t pid, State* state);

      private:
        pid_t pid_ = -1;
        State* state_ = nullptr;
    };

    Guardian() = default;

    pid_t pid_ = -1;
    int pipe_fd_ = -1; // write end: closed when dlock exits, whatever the way
    State* state_ = nullptr;
};

} // namespace dlock::process
