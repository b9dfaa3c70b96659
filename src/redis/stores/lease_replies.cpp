#include "redis/stores/lease_replies.hpp"

#include "redis/scripts/script_reply.hpp"

namespace dlock::redis {
namespace {

// acquire.lua's grant: {1, fencing token, holds, granted mode}, then the history error.
Result<AcquireReply> acquire_granted(const ScriptFields& f) {
    AcquireReply out;
    out.kind = AcquireReply::Kind::granted;
    TRY_ASSIGN(out.fence, f.int_at(1, "fencing token"));
    TRY_ASSIGN(out.holds, f.int_at(2, "holds"));
    TRY_ASSIGN(const size_t mode, f.one_of_at(3, "granted mode", {"x", "s"}));
    out.shared = mode == 1;
    TRY_ASSIGN(out.history_error, history_error_at(f, 4));
    return out;
}

// acquire.lua's refusal: {0, ms left, host, pid, user, cmd, since ms, fencing token, queued
// waiters, shared holders, held until, heartbeat window}, then the history error.
Result<AcquireReply> acquire_refused(const ScriptFields& f) {
    AcquireReply out;
    out.kind = AcquireReply::Kind::refused;
    TRY_ASSIGN(out.left_ms, f.int_at(1, "ms left"));
    TRY_ASSIGN(out.holder, holder_at(f, 2));
    TRY_ASSIGN(out.waiters, f.int_at(8, "queued waiters"));
    TRY_ASSIGN(out.shared_holders, f.int_at(9, "shared holders"));
    TRY_ASSIGN(out.held_until_ms, f.int_at(10, "held until"));
    TRY_ASSIGN(out.window_ms, f.int_at(11, "heartbeat window"));
    TRY_ASSIGN(out.history_error, history_error_at(f, 12));
    return out;
}

// A status element that is 0 or 1, as a bool.
Result<bool> zero_or_one(const ScriptFields& f, size_t i, std::string_view field) {
    TRY_ASSIGN(const int64_t value, f.int_at(i, field));
    if (value != 0 && value != 1)
        return tl::unexpected(f.bad_field(field, "neither 0 nor 1"));
    return value == 1;
}

// sem_acquire.lua's refusal: {0, ms left, limit, permits held, queued waiters, then 6 fields
// per holder}.
Result<SemAcquireReply> sem_acquire_refused(const ScriptFields& f) {
    constexpr size_t kHead = 5;
    if (f.size() < kHead || (f.size() - kHead) % kHolderFields != 0)
        return tl::unexpected(f.bad_shape());
    SemAcquireReply out;
    out.kind = SemAcquireReply::Kind::refused;
    TRY_ASSIGN(out.left_ms, f.int_at(1, "ms left"));
    TRY_ASSIGN(out.limit, f.int_at(2, "limit"));
    TRY_ASSIGN(out.permits_held, f.int_at(3, "permits held"));
    TRY_ASSIGN(out.waiters, f.int_at(4, "queued waiters"));
    for (size_t i = kHead; i < f.size(); i += kHolderFields) {
        TRY_ASSIGN(auto holder, holder_at(f, i));
        out.holders.push_back(std::move(holder));
    }
    return out;
}

// acquire.lua's refusal of a paused name: {-2, until ms, by, host, reason, since ms, recorded},
// then the history error.
Result<AcquireReply> acquire_paused(const ScriptFields& f) {
    AcquireReply out;
    out.kind = AcquireReply::Kind::paused;
    TRY_ASSIGN(out.pause.until_ms, f.int_at(1, "paused until"));
    TRY_ASSIGN(out.pause.by, f.text_at(2, "paused by"));
    TRY_ASSIGN(out.pause.host, f.text_at(3, "pausing host"));
    TRY_ASSIGN(out.pause.reason, f.text_at(4, "pause reason"));
    TRY_ASSIGN(out.pause.since_ms, f.int_at(5, "paused since"));
    TRY_ASSIGN(out.pause.recorded, zero_or_one(f, 6, "recorded"));
    TRY_ASSIGN(out.history_error, history_error_at(f, 7));
    return out;
}

} // namespace

Result<AcquireReply> decode_acquire(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::acquire));
    if (f.size() == 0)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    if (status == -1 && f.size() == 1) {
        AcquireReply out;
        out.kind = AcquireReply::Kind::upgrade_refused;
        return out;
    }
    if (status == -2 && (f.size() == 7 || f.size() == 8))
        return acquire_paused(f);
    if (status == 1 && (f.size() == 4 || f.size() == 5))
        return acquire_granted(f);
    if (status == 0 && (f.size() == 12 || f.size() == 13))
        return acquire_refused(f);
    return tl::unexpected(f.bad_shape());
}

Result<ReleaseReply> decode_release(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::release));
    if (f.size() != 2 && f.size() != 3)
        return tl::unexpected(f.bad_shape());
    ReleaseReply out;
    TRY_ASSIGN(out.ours, zero_or_one(f, 0, "ours"));
    TRY_ASSIGN(out.holds_left, f.int_at(1, "holds left"));
    TRY_ASSIGN(out.history_error, history_error_at(f, 2));
    return out;
}

Result<SemAcquireReply> decode_sem_acquire(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::sem_acquire));
    if (f.size() == 0)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    if (status == 0)
        return sem_acquire_refused(f);
    if ((status != 1 && status != -1) || f.size() != 3)
        return tl::unexpected(f.bad_shape());
    SemAcquireReply out;
    out.kind = status == 1 ? SemAcquireReply::Kind::granted : SemAcquireReply::Kind::limit_differs;
    TRY_ASSIGN(const int64_t second, f.int_at(1, status == 1 ? "fencing token" : "limit"));
    (status == 1 ? out.fence : out.limit) = second;
    TRY_ASSIGN(out.permits_held, f.int_at(2, "permits held"));
    return out;
}

Result<SemReleaseReply> decode_sem_release(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::sem_release));
    if (f.size() != 2)
        return tl::unexpected(f.bad_shape());
    SemReleaseReply out;
    TRY_ASSIGN(out.released, zero_or_one(f, 0, "released"));
    TRY_ASSIGN(out.permits_held, f.int_at(1, "permits held"));
    return out;
}

} // namespace dlock::redis
