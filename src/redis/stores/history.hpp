#pragma once

#include "lock/backend.hpp"
#include "lock/history.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlock::redis {

using HistoryFields = lock::HistoryFields;

// One entry of a name's history stream.
struct HistoryEntry {
    std::string id;      // stream id "<ms>-<seq>"
    int64_t time_ms = 0; // server time of the event (the id's first part)
    HistoryFields fields;

    // The value of field `name`, "" when absent.
    std::string_view field(std::string_view name) const;
    // The integer value of field `name`, 0 when absent or not a number.
    int64_t number(std::string_view name) const;
    // The other party of a skip, a forced release or a lost lease (fields other_host,
    // other_pid, other_user, other_command, other_since_ms, other_fence); nullopt when none.
    std::optional<lock::HolderInfo> other() const;
};

// Appends an event to the stream `key` (lua/history_add.lua: capped, server time, kept 30
// days). Empty values are left out.
Result<void> append_history(ScriptSession& session, const std::string& key,
                            const HistoryFields& fields);

// The newest `count` entries of the stream `key`, newest first (none if it does not exist).
Result<std::vector<HistoryEntry>> read_history(ScriptSession& session, const std::string& key,
                                               int64_t count);

} // namespace dlock::redis
