#pragma once

#include "lock/store.hpp"

#include <string>
#include <vector>

namespace dlock::redis {

// The majority view of `dlock status` under Redlock: for each of `names`, the exclusive holder
// that the most members agree on (by host, pid and command), held when a majority of the
// `total` members does. The fencing token shown is the largest among those agreeing, since the
// committed token is the largest counter of its majority.
std::vector<lock::MajorityHolder> majorities(const std::vector<Result<lock::StatusReport>>& reports,
                                             const std::vector<std::string>& names, size_t total);

// Each member's newest `count` entries merged into the newest `count` events: entries of
// different members with the same event, host, pid, mode and permit less than 2 s apart are
// one event, shown once with a "members" field "K/N" and the largest token.
std::vector<lock::HistoryEntry>
merge_members(const std::vector<Result<std::vector<lock::HistoryEntry>>>& per_member, size_t count);

} // namespace dlock::redis
