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
// and exits. It holds no other descriptor (not even 0-2: a reader of dlock's stdout or stderr
// sees end of file when dlock exits, not when the guardian does). It sits in a process group of
// its own and blocks every signal but SIGKILL, so a signal to dlock's job (e.g. `kill -9 -PGID`
// of a shell script) does not take it along, and its name (`lockguard`) does not match
// `pkill dlock` or `killall dlock`. (Under valgrind, which cannot run such a process, there is
// none.)
//
// dlock reaps it before it exits, whatever the way (the destructor; die_of_signal through
// set_before_dying), waiting for it at most kReapWaitMs: left to an init that does not reap, as in
// many containers, it would stay a zombie.
class Guardian {
  public:
    static constexpr int kReapWaitMs = 1000;

    static Result<Guardian> start();
    ~Guardian(); // the guardian exits (without killing anything once disarmed) and is reaped
    Guardian(Guardian&& other) noexcept;
    Guardian(const Guardian&) = delete;
    Guardian& operator=(const Guardian&) = delete;
    Guardian& operator=(Guardian&&) = delete;

    // Where the group to kill is published. Set it from the spawned child before exec (a vfork
    // child shares this memory), so no moment exists where the command runs unguarded.
    std::atomic<pid_t>& group() const;
    // The group is gone (drained): nothing to kill any more, and its id may be reused.
    void disarm() const;
    // Disarms it and tells it to exit now (it is reaped later, by the destructor, when it has
    // long exited: dlock does not wait for it on the way).
    void dismiss() const;
    pid_t pid() const;

    struct State; // shared with the guardian process

  private:
    Guardian() = default;

    State* state_ = nullptr;
};

} // namespace dlock::process
