#pragma once

#include <cstdint>
#include <string>

namespace dlock::lock {

// Who broke a lease with `dlock release --force`, and when (Redis server time, ms since the
// epoch), as the history recorded the force: what a holder that lost its lease tells.
struct ForcedRelease {
    std::string host;
    int64_t pid = 0;
    std::string user;
    int64_t at_ms = 0;
};

} // namespace dlock::lock
