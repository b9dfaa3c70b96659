#pragma once

#include "lock/backend.hpp"
#include "lock/history.hpp"
#include "lock/store.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlock::redis {

using HistoryFields = lock::HistoryFields;

using HistoryEntry = lock::HistoryEntry;

// Appends an event to the stream `key` (lua/history_add.lua: capped, server time, kept 30
// days), and counts it in the run counters `runs` when it ends or skips a run (a lost lease, a
// skip; "": not counted). Empty values are left out.
Result<void> append_history(ScriptSession& session, const std::string& key, const std::string& runs,
                            const HistoryFields& fields);

// The newest `count` entries of the stream `key`, newest first (none if it does not exist).
Result<std::vector<HistoryEntry>> read_history(ScriptSession& session, const std::string& key,
                                               int64_t count);

} // namespace dlock::redis
