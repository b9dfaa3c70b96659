#pragma once

#include "lock/keys.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>

namespace dlock::lock {

// `run --once-per`: slot i of a name is the server time [offset + i*period - tolerance,
// offset + (i+1)*period - tolerance); a run whose lock was acquired in it runs only if no run of
// the slot succeeded (see lua/slot.lua).
struct SlotRule {
    Millis period{0};
    Millis offset{0}; // |offset| < period
    Millis tolerance{0};
    bool strict = false; // the slot is done once a run has claimed it, whatever its outcome
};

// The lease a slot is claimed or marked under, and who does it.
struct SlotHolder {
    std::string owner; // owner token and hold id of the exclusive lease on the name
    std::string hold_id;
    std::string host;
    int64_t pid = 0;
    std::string user;
    int64_t fence = 0;
};

struct SlotAnswer {
    enum class State { lost, open, done };
    State state = State::lost;
    int64_t slot = 0;     // the caller's slot
    int64_t basis_ms = 0; // when open: the server time the slot is of (the lock's acquisition)
    // When done: the slot done (>= slot) and by whom.
    int64_t done_slot = 0;
    std::string host, pid, user, fence;
    int64_t at_ms = 0;
    // When open: the last mark was made under another period or offset (in ms, as text), by
    // `host`; it was not counted. Empty otherwise.
    std::string foreign_period, foreign_offset;
    // When open: the last mark, as its slot text, could not be read or was more than a slot
    // ahead of the server's clock; it was not counted. Empty otherwise.
    std::string ignored_mark;
};

// The slot calls of a store; claim and mark_done only while holding the exclusive lease on the
// name. Both may be sent again with the same arguments: a claim changes nothing unless strict,
// and marking a slot done twice leaves it done.
class Slots {
  public:
    virtual ~Slots() = default;
    // The slot the server's clock is in now: open or done. With rule.strict, an open slot is
    // marked done at once.
    virtual Result<SlotAnswer> claim(const Keys& keys, const SlotRule& rule,
                                     const SlotHolder& holder) = 0;
    // Marks `slot` done, unless it or a later one is already.
    virtual Result<SlotAnswer> mark_done(const Keys& keys, const SlotRule& rule,
                                         const SlotHolder& holder, int64_t slot) = 0;
    // Whether the slot the server's clock is in now is done, without holding the lease and
    // without writing: for a run refused by a lock kept by --min-hold after a run of the slot.
    virtual Result<SlotAnswer> peek(const Keys& keys, const SlotRule& rule) = 0;
};

} // namespace dlock::lock
