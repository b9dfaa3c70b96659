#pragma once

#include "app/status.hpp"

namespace dlock::app {

// `dlock status` under Redlock: each member's own view, then the majority's: for each name, the
// holder that a majority of members agree on, if any. Exit 0 when a name is held on a majority.
Result<int> quorum_status(const Target& target, const StatusOptions& options);

} // namespace dlock::app
