#include "redis/stores/compat_replies.hpp"

#include "redis/scripts/script_reply.hpp"

namespace dlock::redis {
namespace {

// {1, ...granted} or {0, ms left, holder, ...}: the status and the refusal's common part.
Result<CompatAcquireReply> acquire_head(const ScriptFields& f, size_t granted_size,
                                        size_t refused_size) {
    if (f.size() == 0)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    CompatAcquireReply out;
    if (status == 1 && f.size() == granted_size) {
        out.acquired = true;
        out.holds = 1;
        return out;
    }
    if (status != 0 || f.size() != refused_size)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(out.left_ms, f.int_at(1, "ms left"));
    TRY_ASSIGN(out.holder, f.text_at(2, "holder"));
    return out;
}

} // namespace

Result<CompatAcquireReply> decode_setnx_acquire(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::compat_setnx_acquire));
    return acquire_head(f, 1, 3);
}

Result<CompatAcquireReply> decode_redisson_acquire(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::compat_redisson_acquire));
    TRY_ASSIGN(auto out, acquire_head(f, 2, 4));
    if (out.acquired) {
        TRY_ASSIGN(out.holds, f.int_at(1, "holds"));
    } else {
        TRY_ASSIGN(out.holder_count, f.int_at(3, "holder count"));
    }
    return out;
}

Result<CompatReleaseReply> decode_redisson_release(ReplyView reply) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::compat_redisson_release));
    if (f.size() != 2)
        return tl::unexpected(f.bad_shape());
    CompatReleaseReply out;
    TRY_ASSIGN(const int64_t ours, f.int_at(0, "ours"));
    if (ours != 0 && ours != 1)
        return tl::unexpected(f.bad_field("ours", "neither 0 nor 1"));
    out.ours = ours == 1;
    TRY_ASSIGN(out.holds_left, f.int_at(1, "holds left"));
    return out;
}

Result<lock::CompatReading> decode_compat_reading(ReplyView reply, const EmbeddedScript& script) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, script));
    if (f.size() < 2)
        return tl::unexpected(f.bad_shape());
    lock::CompatReading out;
    TRY_ASSIGN(out.type, f.text_at(0, "type"));
    TRY_ASSIGN(out.left_ms, f.int_at(1, "ms left"));
    if (out.type == "string") {
        if (f.size() != 3)
            return tl::unexpected(f.bad_shape());
        TRY_ASSIGN(auto value, f.text_at(2, "value"));
        out.holders.push_back({std::move(value), 1});
    } else if (out.type == "hash") {
        if (f.size() % 2 != 0)
            return tl::unexpected(f.bad_shape());
        for (size_t i = 2; i + 1 < f.size(); i += 2) {
            lock::CompatHolder holder;
            TRY_ASSIGN(holder.owner, f.text_at(i, "field"));
            // A count that is not a number (not a Redisson hash after all) is shown as 0.
            auto count = f.int_at(i + 1, "count");
            holder.count = count ? *count : 0;
            out.holders.push_back(std::move(holder));
        }
    } else if (f.size() != 2) {
        return tl::unexpected(f.bad_shape());
    }
    return out;
}

} // namespace dlock::redis
