#include "lock/quorum.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

namespace dlock::lock {

Millis clock_drift(Millis ttl) {
    return ttl / 100 + Millis(2);
}

Millis validity(Millis ttl, std::chrono::steady_clock::duration elapsed) {
    return ttl - std::chrono::ceil<Millis>(elapsed) - clock_drift(ttl);
}

int64_t fence_bound(std::span<const int64_t> granted, size_t members, int64_t now_us) {
    int64_t reference = now_us;
    const size_t outvoted = members - std::min(members, quorum(members)); // a minority
    if (granted.size() > outvoted) {
        std::vector<int64_t> sorted(granted.begin(), granted.end());
        const auto kth = sorted.begin() + static_cast<std::ptrdiff_t>(outvoted);
        std::nth_element(sorted.begin(), kth, sorted.end(), std::greater<>());
        reference = std::max(reference, *kth);
    }
    constexpr int64_t max = std::numeric_limits<int64_t>::max();
    return reference > max - kFenceAheadMicros ? max : reference + kFenceAheadMicros;
}

} // namespace dlock::lock
