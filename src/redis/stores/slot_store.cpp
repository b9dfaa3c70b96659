#include "redis/stores/slot_store.hpp"

#include "redis/scripts/script_reply.hpp"
#include "util/log.hpp"

#include <thread>

namespace dlock::redis {
namespace {

constexpr int kAttempts = 3;       // tries on transient errors
constexpr Millis kRetryPause{200}; // between them

std::string text(int64_t n) {
    return std::to_string(n);
}

// The reply of lua/slot.lua: {-2, type} (the key is not a hash), {-1}, {1, slot, acquisition ms},
// {1, slot, acquisition ms, period, offset, host} (a mark under another rule, not counted), the
// same with the mark's slot text after it (a mark unreadable or ahead of the clock, not counted),
// or {0, slot, done slot, host, pid, user, at, fence}.
Result<lock::SlotAnswer> answer(const Reply& reply, const lock::Keys& keys) {
    using State = lock::SlotAnswer::State;
    if (!reply.is_array() || reply.size() < 1)
        return tl::unexpected(bad_reply(scripts::slot));
    lock::SlotAnswer a;
    const int64_t status = reply[0].as_int();
    if (status == -1)
        return a;
    if (status == -2 && reply.size() == 2)
        return fail(Fault::internal,
                    fmt::format("{} holds a {}, not dlock's slot mark: delete it (redis-cli DEL "
                                "'{}') and run again",
                                keys.slot, reply[1].str(), keys.slot));
    if ((status == 1 && reply.size() != 3 && reply.size() != 6 && reply.size() != 7) ||
        (status == 0 && reply.size() != 8) || (status != 0 && status != 1))
        return tl::unexpected(bad_reply(scripts::slot));
    a.slot = reply[1].as_int();
    if (status == 1) {
        a.state = State::open;
        a.basis_ms = reply[2].as_int();
        if (reply.size() >= 6) {
            a.foreign_period = std::string(reply[3].str());
            a.foreign_offset = std::string(reply[4].str());
            a.host = std::string(reply[5].str());
        }
        if (reply.size() == 7)
            a.ignored_mark = std::string(reply[6].str());
        return a;
    }
    a.state = State::done;
    a.done_slot = reply[2].as_int();
    a.host = std::string(reply[3].str());
    a.pid = std::string(reply[4].str());
    a.user = std::string(reply[5].str());
    a.at_ms = reply[6].as_int();
    a.fence = std::string(reply[7].str());
    return a;
}

} // namespace

Result<lock::SlotAnswer> SlotStore::run(std::string_view op, const lock::Keys& keys,
                                        const lock::SlotRule& rule, const lock::SlotHolder& holder,
                                        int64_t slot) {
    const std::string period = text(rule.period.count()), offset = text(rule.offset.count()),
                      tolerance = text(rule.tolerance.count()), slot_text = text(slot),
                      pid = text(holder.pid), fence = text(holder.fence);
    Error last;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        if (attempt > 0)
            std::this_thread::sleep_for(kRetryPause);
        auto reply = session_.run(scripts::slot, {keys.lock, keys.slot},
                                  {op, holder.owner, holder.hold_id, period, offset, tolerance,
                                   slot_text, holder.host, pid, holder.user, fence});
        if (reply)
            return answer(*reply, keys);
        last = reply.error();
        if (!last.transient)
            break;
        log::debug("{}: {}; retrying", scripts::slot.name, last.message);
    }
    return tl::unexpected(last);
}

Result<lock::SlotAnswer> SlotStore::claim(const lock::Keys& keys, const lock::SlotRule& rule,
                                          const lock::SlotHolder& holder) {
    return run(rule.strict ? "strict" : "claim", keys, rule, holder, 0);
}

Result<lock::SlotAnswer> SlotStore::mark_done(const lock::Keys& keys, const lock::SlotRule& rule,
                                              const lock::SlotHolder& holder, int64_t slot) {
    return run("done", keys, rule, holder, slot);
}

} // namespace dlock::redis
