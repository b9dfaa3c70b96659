#pragma once

#include "util/duration.hpp"

#include <algorithm>
#include <random>

namespace dlock::lock {

// Pauses between retries of a transient error: short at first, since the usual cause (a reset
// connection) is over at once, then doubling up to a cap so a restarting Redis is not hammered.
// Each pause is drawn between half and all of its step: many clients refused at once (a server
// at its maxclients, a restart) come back spread out rather than together.
class Backoff {
  public:
    static constexpr Millis kFirst{20};
    static constexpr Millis kMax{200};

    Millis next() {
        const Millis step = step_;
        step_ = std::min(step_ * 2, kMax);
        std::uniform_int_distribution<Millis::rep> jitter(step.count() / 2, step.count());
        return Millis(jitter(random_));
    }
    void reset() { step_ = kFirst; }

  private:
    Millis step_ = kFirst;
    std::minstd_rand random_{std::random_device{}()};
};

} // namespace dlock::lock
