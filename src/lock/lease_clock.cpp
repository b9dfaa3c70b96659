#include "lock/lease_clock.hpp"

#include <algorithm>

namespace dlock::lock {

LeaseClock::LeaseClock(Clock::time_point acquired_sent_at, Millis ttl, Millis grace)
    : guaranteed_until_((acquired_sent_at + ttl).time_since_epoch().count()), ttl_(ttl),
      grace_(grace) {}

void LeaseClock::renewed(Clock::time_point sent_at) {
    // Replies can arrive out of order only across reconnects; never move the deadline back.
    auto candidate = (sent_at + ttl_).time_since_epoch().count();
    auto current = guaranteed_until_.load();
    while (candidate > current && !guaranteed_until_.compare_exchange_weak(current, candidate)) {
    }
}

LeaseClock::Clock::time_point LeaseClock::guaranteed_until() const {
    return Clock::time_point(Clock::duration(guaranteed_until_.load()));
}

LeaseClock::Clock::time_point LeaseClock::stop_at() const {
    if (lost_.load())
        return Clock::time_point::min();
    return guaranteed_until() - safety_margin(ttl_) - grace_;
}

bool LeaseClock::expired(Clock::time_point now) const {
    return now >= stop_at();
}

Millis LeaseClock::safety_margin(Millis ttl) {
    // Covers scheduling delays and clock-rate differences between this host and Redis.
    return std::clamp(ttl / 10, Millis(50), Millis(2000));
}

} // namespace dlock::lock
