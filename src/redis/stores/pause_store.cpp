#include "redis/stores/pause_store.hpp"

#include "redis/scripts/script_reply.hpp"

namespace dlock::redis {
namespace {

// pause.lua: {until ms, since ms, replaced, waiters dropped, held}, then the history error.
Result<lock::Paused> decode_pause(ReplyView reply, const lock::Keys& keys) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::pause));
    if (f.size() != 5 && f.size() != 6)
        return tl::unexpected(f.bad_shape());
    lock::Paused out;
    TRY_ASSIGN(out.until_ms, f.int_at(0, "paused until"));
    TRY_ASSIGN(out.since_ms, f.int_at(1, "paused since"));
    TRY_ASSIGN(const int64_t replaced, f.int_at(2, "replaced"));
    TRY_ASSIGN(out.waiters_dropped, f.int_at(3, "waiters dropped"));
    TRY_ASSIGN(const int64_t held, f.int_at(4, "held"));
    out.replaced = replaced != 0;
    out.held = held != 0;
    TRY_ASSIGN(const auto history_error, history_error_at(f, 5));
    note_history_error(history_error, keys.history);
    return out;
}

// resume.lua: {1, paused by, reason, since ms} or {0}, then the history error.
Result<std::optional<lock::Resumed>> decode_resume(ReplyView reply, const lock::Keys& keys) {
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, scripts::resume));
    if (f.size() == 0)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t was, f.int_at(0, "was paused"));
    if (was == 0 && f.size() == 1)
        return std::nullopt;
    if (was != 1 || (f.size() != 4 && f.size() != 5))
        return tl::unexpected(f.bad_shape());
    lock::Resumed out;
    TRY_ASSIGN(out.by, f.text_at(1, "paused by"));
    TRY_ASSIGN(out.reason, f.text_at(2, "pause reason"));
    TRY_ASSIGN(out.since_ms, f.int_at(3, "paused since"));
    TRY_ASSIGN(const auto history_error, history_error_at(f, 4));
    note_history_error(history_error, keys.history);
    return out;
}

} // namespace

Result<lock::Paused> pause_name(ScriptSession& session, const lock::Keys& keys,
                                const lock::PauseRequest& r) {
    auto reply =
        session.run(scripts::pause,
                    {keys.paused, keys.lock, keys.queue, keys.alive, keys.wake, keys.xqueue,
                     keys.winfo, keys.history, keys.readers},
                    {std::to_string(r.duration.count()), r.user, r.host, std::to_string(r.pid),
                     r.reason, std::to_string(r.heartbeat.count())});
    TRY(reply);
    return decode_pause(*reply, keys);
}

Result<std::optional<lock::Resumed>> resume_name(ScriptSession& session, const lock::Keys& keys,
                                                 const lock::HolderInfo& who) {
    auto reply = session.run(scripts::resume, {keys.paused, keys.history},
                             {who.user, who.host, std::to_string(who.pid)});
    TRY(reply);
    return decode_resume(*reply, keys);
}

} // namespace dlock::redis
