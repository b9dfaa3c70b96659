#include "redis/stores/force_release.hpp"

#include "redis/scripts/script_reply.hpp"

namespace dlock::redis {
namespace {

// Both scripts reply {woken, history error or "", ...}, then one entry per hold broken:
// {mode or permit id, host, pid, user, cmd, since, fence}.
constexpr size_t kBrokenFields = 1 + kHolderFields;

lock::LockStatus::State mode_of(std::string_view mode) {
    if (mode == "s")
        return lock::LockStatus::State::shared;
    if (mode == "done")
        return lock::LockStatus::State::min_hold;
    return lock::LockStatus::State::exclusive;
}

// Runs one of the two scripts and checks its reply: `head` elements, then entries of
// kBrokenFields each.
Result<Reply> run_forcing(ScriptSession& session, const EmbeddedScript& script,
                          const std::vector<std::string_view>& keys,
                          const std::vector<std::string_view>& args, size_t head,
                          std::string_view history_key) {
    auto reply = session.run(script, keys, args);
    if (!reply)
        return reply;
    if (!reply->is_array() || reply->size() < head)
        return tl::unexpected(bad_reply(script));
    for (size_t i = head; i < reply->size(); ++i)
        if ((*reply)[i].size() != kBrokenFields)
            return tl::unexpected(bad_reply(script));
    note_history_error(*reply, 1, history_key);
    return reply;
}

} // namespace

Result<BrokenLock> force_release_lock(ScriptSession& session, const lock::Keys& keys,
                                      const lock::HolderInfo& forcer, Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    constexpr size_t kHead = 2;
    auto reply = run_forcing(
        session, scripts::force_release,
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history},
        {heartbeat_text, forcer.host, pid, forcer.user, forcer.command}, kHead, keys.history);
    TRY(reply);
    BrokenLock out{(*reply)[0].as_int(), {}};
    for (size_t i = kHead; i < reply->size(); ++i) {
        const auto hold = (*reply)[i];
        out.holds.push_back(BrokenHold{mode_of(hold[0].str()), holder_at(hold, 1)});
    }
    return out;
}

Result<BrokenPermits> force_release_permits(ScriptSession& session, const lock::Keys& keys,
                                            std::string_view permit, const lock::HolderInfo& forcer,
                                            Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    constexpr size_t kHead = 3; // the third: the permits still held
    auto reply =
        run_forcing(session, scripts::sem_force_release,
                    {keys.sem, keys.permits, keys.squeue, keys.salive, keys.swake, keys.history},
                    {permit, heartbeat_text, forcer.host, pid, forcer.user, forcer.command}, kHead,
                    keys.history);
    TRY(reply);
    BrokenPermits out{(*reply)[0].as_int(), {}};
    for (size_t i = kHead; i < reply->size(); ++i) {
        const auto broken = (*reply)[i];
        out.permits.push_back(BrokenPermit{std::string(broken[0].str()), holder_at(broken, 1)});
    }
    return out;
}

} // namespace dlock::redis
