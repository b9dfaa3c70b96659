#pragma once

#include "app/metrics_text.hpp"
#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::app {

// `dlock metrics`: reads `names` (empty: every name in use or with run counters) in one status
// round trip. Under a quorum, the majority's view: its holder, the runs a majority recorded.
Result<MetricsReading> read_metrics(lock::Store& store, const Target& target,
                                    const std::vector<std::string>& names);

// The metrics of one name as the reading shows it (exposed for the tests).
NameMetrics name_metrics(const lock::StatusReading& reading, const std::string& name);

} // namespace dlock::app
