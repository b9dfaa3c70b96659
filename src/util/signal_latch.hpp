#pragma once

#include <csignal>
#include <initializer_list>
#include <vector>

namespace dlock {

// Catches signals that would otherwise end the process, so a wait can be left cleanly first:
// the handler only records the first one. Signals that are ignored (e.g. INT for a background
// job) stay ignored. Restores the previous handlers when destroyed. One latch at a time.
class SignalLatch {
  public:
    explicit SignalLatch(std::initializer_list<int> signals);
    ~SignalLatch();
    SignalLatch(const SignalLatch&) = delete;
    SignalLatch& operator=(const SignalLatch&) = delete;

    // The first signal caught, or 0.
    int caught() const;
    // Restores the previous handlers and sends the caught signal again, so the process ends as
    // the signal would have ended it. Returns 128+N in case it does not (also when a handler
    // could not be restored, which is logged).
    int reraise();

  private:
    // False when a handler could not be put back (logged as a warning).
    bool restore();

    std::vector<std::pair<int, struct sigaction>> previous_;
};

} // namespace dlock
