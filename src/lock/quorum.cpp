#include "lock/quorum.hpp"

namespace dlock::lock {

Millis clock_drift(Millis ttl) {
    return ttl / 100 + Millis(2);
}

Millis validity(Millis ttl, std::chrono::steady_clock::duration elapsed) {
    return ttl - std::chrono::ceil<Millis>(elapsed) - clock_drift(ttl);
}

} // namespace dlock::lock
