#include "util/bench_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlock::app {
namespace {

double ms(std::chrono::nanoseconds d) {
    return static_cast<double>(d.count()) / 1e6;
}

} // namespace

LatencyStats latency_stats(std::vector<std::chrono::nanoseconds>& samples) {
    LatencyStats s;
    s.samples = samples.size();
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    auto rank = [&](double p) {
        auto i = static_cast<size_t>(std::ceil(p * static_cast<double>(samples.size())));
        return samples[std::clamp<size_t>(i, 1, samples.size()) - 1];
    };
    s.p50_ms = ms(rank(0.50));
    s.p99_ms = ms(rank(0.99));
    s.max_ms = ms(samples.back());
    s.mean_ms = ms(std::accumulate(samples.begin(), samples.end(), std::chrono::nanoseconds(0))) /
                static_cast<double>(samples.size());
    return s;
}

} // namespace dlock::app
