#pragma once

#include <chrono>
#include <vector>

namespace dlock::app {

struct LatencyStats {
    size_t samples = 0;
    double p50_ms = 0, p99_ms = 0, max_ms = 0, mean_ms = 0;
};

// Nearest-rank percentiles over the samples (which it sorts).
LatencyStats latency_stats(std::vector<std::chrono::nanoseconds>& samples);

} // namespace dlock::app
