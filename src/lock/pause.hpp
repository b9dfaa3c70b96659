#pragma once

#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace dlock::lock {

// A name paused by `dlock pause`: while it lasts, no run or acquire of the name starts, whatever
// its wait (lua/pause.lua, lua/acquire.lua).
struct Pause {
    int64_t until_ms = 0; // server ms when it ends by itself; 0: only `dlock resume` ends it
    std::string by;       // the user who paused it
    std::string host;     // and the host
    std::string reason;   // "" when none was given
    int64_t since_ms = 0; // server ms
    // An acquire refused as paused: the store recorded the skip in the history and counters (a
    // quorum member does not: the caller records its final answer).
    bool recorded = false;
};

// `dlock pause`: who pauses, for how long (0: until resumed), and why.
struct PauseRequest {
    Millis duration{0};
    std::string user;
    std::string host;
    int64_t pid = 0;
    std::string reason;
    Millis heartbeat{}; // of the waiters it wakes
};

// What a pause did on one server.
struct Paused {
    int64_t until_ms = 0; // 0: no end
    int64_t since_ms = 0;
    bool replaced = false; // the name was paused already: this pause replaced that one
    int64_t waiters_dropped = 0;
    bool held = false; // a holder runs on, undisturbed
};

// What `dlock resume` found on one server: nullopt when the name was not paused there.
struct Resumed {
    std::string by; // "user@host" of the pause it ended
    std::string reason;
    int64_t since_ms = 0;
};

struct MemberPaused {
    std::string name; // the server, as MemberStatus names it ("" for a single deployment)
    Result<Paused> paused;
};

struct MemberResumed {
    std::string name;
    Result<std::optional<Resumed>> resumed;
};

} // namespace dlock::lock
