#pragma once

#include "lock/backend.hpp"
#include "lock/compat.hpp"
#include "lock/keys.hpp"
#include "redis/scripts/script_session.hpp"

#include <string>

namespace dlock::redis {

// `status --compat` and `release --force --compat` on one deployment
// (lua/compat_status.lua, lua/compat_force_release.lua).

Result<lock::CompatReading> read_compat(ScriptSession& session, const std::string& key);

// Breaks `key` when it is a lock of `format` (Redisson's also gets its unlock message), then
// records the forcer in the history of `keys` in a round trip of its own (the other side's key
// may live in another Cluster slot): a failed record is logged at -v only.
Result<lock::CompatReading> force_release_compat(ScriptSession& session, lock::CompatFormat format,
                                                 const std::string& key, const lock::Keys& keys,
                                                 const lock::HolderInfo& forcer);

} // namespace dlock::redis
