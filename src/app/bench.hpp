#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::app {

struct BenchOptions {
    std::string name = "dlock-bench"; // keys used: <prefix>:{<name>-...}:*, deleted afterwards
    int cycles = 2000;                // uncontended acquire+release cycles
    std::vector<int> waiters{8, 32};  // handover runs, one per waiter count
    int handovers = 1000;             // latency samples per run (at least)
    bool json = false;
};

// `dlock bench`: measures this Redis as dlock uses it, dlock's side through the leases of
// `store`, the baseline and command counts on its own connection. Prints a table or JSON on
// stdout; 0.
Result<int> bench(lock::Store& store, const Target& target, const BenchOptions& options);

} // namespace dlock::app
