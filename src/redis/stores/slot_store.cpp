#include "redis/stores/slot_store.hpp"

#include "redis/stores/inspection_replies.hpp"
#include "util/log.hpp"

#include <fmt/format.h>
#include <thread>

namespace dlock::redis {
namespace {

constexpr int kAttempts = 3;       // tries on transient errors
constexpr Millis kRetryPause{200}; // between them

std::string text(int64_t n) {
    return std::to_string(n);
}

// The answer of lua/slot.lua, or the error of a slot key that is not dlock's.
Result<lock::SlotAnswer> answer(const Reply& reply, const lock::Keys& keys) {
    TRY_ASSIGN(auto decoded, decode_slot(reply));
    if (decoded.foreign_type)
        return fail(Fault::internal,
                    fmt::format("{} holds a {}, not dlock's slot mark: delete it (redis-cli DEL "
                                "'{}') and run again",
                                keys.slot, *decoded.foreign_type, keys.slot));
    return std::move(decoded.answer);
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

Result<lock::SlotAnswer> SlotStore::peek(const lock::Keys& keys, const lock::SlotRule& rule) {
    return run("peek", keys, rule, lock::SlotHolder{}, 0);
}

} // namespace dlock::redis
