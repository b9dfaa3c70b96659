#pragma once

#include "lock/backend.hpp"
#include "lock/keys.hpp"
#include "lock/pause.hpp"
#include "redis/scripts/script_session.hpp"

#include <optional>

namespace dlock::redis {

// `dlock pause` and `dlock resume` on one server (lua/pause.lua, lua/resume.lua), each one
// script. A failed history write is logged at -v only.
Result<lock::Paused> pause_name(ScriptSession& session, const lock::Keys& keys,
                                const lock::PauseRequest& request);

// nullopt when the name was not paused.
Result<std::optional<lock::Resumed>> resume_name(ScriptSession& session, const lock::Keys& keys,
                                                 const lock::HolderInfo& who);

} // namespace dlock::redis
