#pragma once

#include "util/duration.hpp"

#include <algorithm>

namespace dlock::lock {

// Pauses between retries of a transient error: short at first, since the usual cause (a reset
// connection) is over at once, then doubling up to a cap so a restarting Redis is not hammered.
class Backoff {
  public:
    static constexpr Millis kFirst{20};
    static constexpr Millis kMax{200};

    Millis next() {
        const Millis pause = pause_;
        pause_ = std::min(pause_ * 2, kMax);
        return pause;
    }
    void reset() { pause_ = kFirst; }

  private:
    Millis pause_ = kFirst;
};

} // namespace dlock::lock
