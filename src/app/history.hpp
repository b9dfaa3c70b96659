#pragma once

#include "app/target.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>

namespace dlock::app {

inline constexpr int64_t kDefaultHistoryCount = 20;
inline constexpr int64_t kMaxHistoryCount = 1000; // about what the stream keeps

struct HistoryOptions {
    std::string name;
    int64_t count = kDefaultHistoryCount;
    bool json = false;
};

// `dlock history NAME`: the newest entries first. 0 when there were some, exit_code::nothing
// when the name has no history. Under a quorum, each event once, with the members that
// recorded it.
Result<int> history(lock::Store& store, const Target& target, const HistoryOptions& options);

} // namespace dlock::app
