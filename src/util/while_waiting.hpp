#pragma once

#include <functional>

namespace dlock {

// Work that can overlap a round trip to Redis: instead of doing it before sending a request,
// a thread hands it over here, and the thread's next wait for a reply (redis::wait_for, just
// before it blocks) runs it, while the server works. It runs once, on the thread that set it:
// at that wait, at run_now(), or never if the object is destroyed first (the work is then
// assumed unneeded; run_now() before relying on it). One at a time per thread.
class WhileWaiting {
  public:
    explicit WhileWaiting(std::function<void()> work);
    ~WhileWaiting(); // drops the work if it has not run
    WhileWaiting(const WhileWaiting&) = delete;
    WhileWaiting& operator=(const WhileWaiting&) = delete;

    // Runs the work now unless it already ran (e.g. no wait came, or another thread waited).
    void run_now();

    // Called by whatever is about to block waiting for a reply: runs this thread's pending
    // work, if any.
    static void run_pending();

  private:
    std::function<void()> work_;
};

} // namespace dlock
