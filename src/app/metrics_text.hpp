#pragma once

#include "lock/runs.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::app {

// What `dlock metrics` exports about one name: its run counters and records, and its state now.
struct NameMetrics {
    std::string name;
    lock::RunStats runs;
    int64_t holders = 0; // of the lock: holders, or the owners of the semaphore's permits
    int64_t waiters = 0;
    // The shortest TTL left among the holders, in ms; nullopt when nobody holds the name, -1
    // when every holder's lease has no expiry.
    std::optional<int64_t> ttl_ms;
    // A semaphore: its permits in use, and its limit.
    std::optional<int64_t> permits_used;
    int64_t permits_limit = 0;
    // False for a name that is only a semaphore or a latch and never ran as a lock: its runs
    // are not counted, so it exports no run families (a "never succeeded" 0 would page).
    bool counts_runs = true;
    bool paused = false; // `dlock pause`: no run starts until it ends
};

// One reading for the exposition: up when Redis answered (then the names, at the server time).
struct MetricsReading {
    bool up = false;
    int64_t server_now_ms = 0;
    std::vector<NameMetrics> names; // in the order they are exported
};

// The reading in the Prometheus text exposition format 0.0.4: each family once, its HELP and
// TYPE lines then every sample, times and durations in seconds. Down: `dlock_up 0` alone.
std::string metrics_text(const MetricsReading& reading);

// A label value as the format writes it between its double quotes: backslash, double quote and
// newline escaped.
std::string escape_label_value(std::string_view value);

} // namespace dlock::app
