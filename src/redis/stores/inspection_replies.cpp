#include "redis/stores/inspection_replies.hpp"

#include "redis/scripts/script_reply.hpp"
#include "redis/stores/latch_replies.hpp"
#include "redis/stores/runs_reader.hpp"

namespace dlock::redis {
namespace {

// status.lua's holders, from element `from` on, in groups of 8: deadline ms, host, pid, user,
// cmd, since ms, fencing token, holds.
Result<void> add_holders(const ScriptFields& list, size_t from, int64_t now_ms,
                         std::vector<lock::HolderStatus>& out) {
    constexpr size_t kFields = 2 + kHolderFields;
    if (list.size() < from || (list.size() - from) % kFields != 0)
        return tl::unexpected(list.bad_shape());
    for (size_t i = from; i < list.size(); i += kFields) {
        TRY_ASSIGN(const int64_t deadline, list.int_at(i, "holder deadline"));
        TRY_ASSIGN(auto info, holder_at(list, i + 1));
        TRY_ASSIGN(const int64_t holds, list.int_at(i + 7, "holder holds"));
        out.push_back(lock::HolderStatus{std::move(info), Millis(deadline - now_ms), holds});
    }
    return {};
}

// status.lua's lock: {} when absent, else {state ("x" or "done"), PTTL ms, host, pid, user, cmd,
// since ms, fencing token, holds, held until ms}.
Result<void> read_lock(const ScriptFields& lock, lock::LockStatus& out) {
    if (lock.size() == 0)
        return {};
    if (lock.size() != 10)
        return tl::unexpected(lock.bad_shape());
    TRY_ASSIGN(const size_t state, lock.one_of_at(0, "lock state", {"x", "done"}));
    const bool done = state == 1;
    out.state = done ? lock::LockStatus::State::min_hold : lock::LockStatus::State::exclusive;
    TRY_ASSIGN(const int64_t ttl, lock.int_at(1, "lock PTTL"));
    TRY_ASSIGN(auto info, holder_at(lock, 2));
    TRY_ASSIGN(const int64_t holds, lock.int_at(8, "lock holds"));
    TRY_ASSIGN(const int64_t until, lock.int_at(9, "lock held until"));
    out.holders.push_back(lock::HolderStatus{std::move(info), Millis(ttl), holds});
    out.held_until_ms = done ? until : 0;
    return {};
}

// status.lua's latch: {} when absent, else {count, initial, PTTL ms, live waiters}; any other
// length (a latch hash whose counts are not numbers) reads as absent.
Result<std::optional<lock::LatchStatus>> read_latch(const ScriptFields& latch) {
    if (latch.size() != 4)
        return std::optional<lock::LatchStatus>();
    TRY_ASSIGN(auto status, latch_fields_at(latch, 0));
    return std::optional<lock::LatchStatus>(status);
}

// status.lua's semaphore: {} when absent (or its limit is not a number), else {limit, waiters,
// holder fields...}.
Result<std::optional<lock::SemaphoreStatus>> read_semaphore(const ScriptFields& sem,
                                                            int64_t now_ms) {
    if (sem.size() < 2)
        return std::optional<lock::SemaphoreStatus>();
    lock::SemaphoreStatus out;
    TRY_ASSIGN(out.limit, sem.int_at(0, "semaphore limit"));
    TRY_ASSIGN(out.waiters, sem.int_at(1, "semaphore waiters"));
    TRY(add_holders(sem, 2, now_ms, out.holders));
    return std::optional<lock::SemaphoreStatus>(std::move(out));
}

// force_release.lua's mode of a hold broken: "x", "s", or "done" (kept by --min-hold).
Result<lock::LockStatus::State> mode_at(const ScriptFields& hold) {
    using State = lock::LockStatus::State;
    TRY_ASSIGN(const size_t mode, hold.one_of_at(0, "mode", {"x", "s", "done"}));
    return mode == 0 ? State::exclusive : mode == 1 ? State::shared : State::min_hold;
}

// The head both force-release scripts' replies start with: {waiters woken, history error or
// ""}, in a reply of at least `head` elements.
Result<ScriptFields> force_head(ReplyView reply, const EmbeddedScript& script, size_t head,
                                int64_t& woken, std::string& history_error) {
    TRY_ASSIGN(auto f, ScriptFields::of(reply, script));
    if (f.size() < head)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(woken, f.int_at(0, "waiters woken"));
    TRY_ASSIGN(history_error, history_error_at(f, 1));
    return f;
}

// The entries of a force_release.lua or sem_force_release.lua reply from element `head` on:
// arrays of a first field (mode or permit id) and a holder.
template <typename Add>
Result<void> each_broken(const ScriptFields& f, size_t head, Add add) {
    for (size_t i = head; i < f.size(); ++i) {
        TRY_ASSIGN(const auto entry, f.list_at(i, "hold broken"));
        if (entry.size() != 1 + kHolderFields)
            return tl::unexpected(f.bad_shape());
        TRY_ASSIGN(auto holder, holder_at(entry, 1));
        TRY(add(entry, std::move(holder)));
    }
    return {};
}

// slot.lua's open slot: {1, slot, acquisition ms}, then the period, offset and host of a mark
// made under another rule, then the text of a mark that was ignored.
Result<lock::SlotAnswer> slot_open(const ScriptFields& f) {
    if (f.size() != 3 && f.size() != 6 && f.size() != 7)
        return tl::unexpected(f.bad_shape());
    lock::SlotAnswer a;
    a.state = lock::SlotAnswer::State::open;
    TRY_ASSIGN(a.slot, f.int_at(1, "slot"));
    TRY_ASSIGN(a.basis_ms, f.int_at(2, "acquisition ms"));
    if (f.size() >= 6) {
        TRY_ASSIGN(a.foreign_period, f.text_at(3, "mark period"));
        TRY_ASSIGN(a.foreign_offset, f.text_at(4, "mark offset"));
        TRY_ASSIGN(a.host, f.text_at(5, "mark host"));
    }
    if (f.size() == 7) {
        TRY_ASSIGN(a.ignored_mark, f.text_at(6, "ignored mark"));
    }
    return a;
}

// slot.lua's slot done already: {0, slot, done slot, host, pid, user, at ms, fence}.
Result<lock::SlotAnswer> slot_done(const ScriptFields& f) {
    if (f.size() != 8)
        return tl::unexpected(f.bad_shape());
    lock::SlotAnswer a;
    a.state = lock::SlotAnswer::State::done;
    TRY_ASSIGN(a.slot, f.int_at(1, "slot"));
    TRY_ASSIGN(a.done_slot, f.int_at(2, "done slot"));
    TRY_ASSIGN(a.host, f.text_at(3, "host"));
    TRY_ASSIGN(a.pid, f.text_at(4, "pid"));
    TRY_ASSIGN(a.user, f.text_at(5, "user"));
    TRY_ASSIGN(a.at_ms, f.int_at(6, "at ms"));
    TRY_ASSIGN(a.fence, f.text_at(7, "fence"));
    return a;
}

} // namespace

namespace {

// status.lua's pause: {} or {by, host, reason, since ms, until ms}.
Result<std::optional<lock::Pause>> read_pause(const ScriptFields& f) {
    if (f.size() == 0)
        return std::nullopt;
    if (f.size() != 5)
        return tl::unexpected(f.bad_shape());
    lock::Pause p;
    TRY_ASSIGN(p.by, f.text_at(0, "paused by"));
    TRY_ASSIGN(p.host, f.text_at(1, "pausing host"));
    TRY_ASSIGN(p.reason, f.text_at(2, "pause reason"));
    TRY_ASSIGN(p.since_ms, f.int_at(3, "paused since"));
    TRY_ASSIGN(p.until_ms, f.int_at(4, "paused until"));
    return p;
}

} // namespace

Result<StatusReply> decode_status(const std::string& name, ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::status));
    if (f.size() != 9)
        return tl::unexpected(f.bad_shape());
    StatusReply out;
    lock::NameStatus& s = out.status;
    s.name = name;
    TRY_ASSIGN(out.now_ms, f.int_at(0, "server now"));
    TRY_ASSIGN(const auto lock, f.list_at(1, "lock"));
    TRY(read_lock(lock, s.lock));
    TRY_ASSIGN(const auto shared, f.list_at(2, "shared holders"));
    TRY(add_holders(shared, 0, out.now_ms, s.lock.holders));
    if (s.lock.state == lock::LockStatus::State::free && !s.lock.holders.empty())
        s.lock.state = lock::LockStatus::State::shared;
    TRY_ASSIGN(s.lock.waiters, f.int_at(3, "lock waiters"));
    TRY_ASSIGN(const auto latch, f.list_at(4, "latch"));
    TRY_ASSIGN(s.latch, read_latch(latch));
    TRY_ASSIGN(const auto sem, f.list_at(5, "semaphore"));
    TRY_ASSIGN(s.semaphore, read_semaphore(sem, out.now_ms));
    TRY(f.list_at(6, "runs"));
    s.runs = parse_runs(reply[6]);
    TRY_ASSIGN(const int64_t traces, f.int_at(7, "semaphore traces"));
    s.semaphore_traces = traces == 1;
    TRY_ASSIGN(const auto pause, f.list_at(8, "pause"));
    TRY_ASSIGN(s.paused, read_pause(pause));
    return out;
}

Result<lock::SemaphorePermits> decode_sem_status(const std::string& name, ReplyView reply) {
    constexpr size_t kHead = 3, kPermitFields = 2 + kHolderFields;
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::sem_status));
    if (f.size() < kHead || (f.size() - kHead) % kPermitFields != 0)
        return tl::unexpected(f.bad_shape());
    lock::SemaphorePermits out{name, 0, 0, 0, {}};
    TRY_ASSIGN(out.server_now_ms, f.int_at(0, "now"));
    TRY_ASSIGN(out.limit, f.int_at(1, "limit"));
    TRY_ASSIGN(out.waiters, f.int_at(2, "live waiters"));
    for (size_t i = kHead; i < f.size(); i += kPermitFields) {
        lock::PermitStatus permit;
        TRY_ASSIGN(permit.permit, f.text_at(i, "permit id"));
        TRY_ASSIGN(const int64_t deadline, f.int_at(i + 1, "permit deadline"));
        permit.ttl_left = Millis(deadline - out.server_now_ms);
        TRY_ASSIGN(permit.info, holder_at(f, i + 2));
        out.permits.push_back(std::move(permit));
    }
    return out;
}

Result<ForceReleaseReply> decode_force_release(ReplyView reply) {
    ForceReleaseReply out;
    TRY_ASSIGN(const auto f,
               force_head(reply, scripts::force_release, 2, out.broken.woken, out.history_error));
    TRY(each_broken(f, 2, [&](const ScriptFields& entry, lock::HolderInfo holder) -> Result<void> {
        TRY_ASSIGN(const auto mode, mode_at(entry));
        out.broken.holds.push_back(lock::BrokenHold{mode, std::move(holder)});
        return {};
    }));
    return out;
}

Result<lock::Forgotten> decode_forget(ReplyView reply) {
    TRY_ASSIGN(const auto fields, ScriptFields::of(reply, scripts::forget));
    if (fields.size() != 2)
        return tl::unexpected(fields.bad_shape());
    TRY_ASSIGN(const size_t held, fields.one_of_at(0, "held", {"", "x", "s", "p"}));
    lock::Forgotten out;
    out.held = static_cast<lock::Forgotten::Held>(held);
    TRY_ASSIGN(out.removed, fields.int_at(1, "keys removed"));
    return out;
}

Result<SemForceReleaseReply> decode_sem_force_release(ReplyView reply) {
    SemForceReleaseReply out;
    TRY_ASSIGN(const auto f, force_head(reply, scripts::sem_force_release, 3, out.broken.woken,
                                        out.history_error));
    TRY_ASSIGN(out.permits_held, f.int_at(2, "permits held"));
    TRY(each_broken(f, 3, [&](const ScriptFields& entry, lock::HolderInfo holder) -> Result<void> {
        TRY_ASSIGN(auto permit, entry.text_at(0, "permit id"));
        out.broken.permits.push_back(lock::BrokenPermit{std::move(permit), std::move(holder)});
        return {};
    }));
    return out;
}

Result<SlotReply> decode_slot(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::slot));
    if (f.size() == 0)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    SlotReply out;
    if (status == -1 && f.size() == 1)
        return out; // lost: the answer's default state
    if (status == -2 && f.size() == 2) {
        TRY_ASSIGN(out.foreign_type, f.text_at(1, "key type"));
        return out;
    }
    if (status != 0 && status != 1)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(out.answer, status == 1 ? slot_open(f) : slot_done(f));
    return out;
}

} // namespace dlock::redis
