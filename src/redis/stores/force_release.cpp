#include "redis/stores/force_release.hpp"

#include "redis/scripts/script_reply.hpp"
#include "redis/stores/inspection_replies.hpp"

namespace dlock::redis {

Result<BrokenLock> force_release_lock(ScriptSession& session, const lock::Keys& keys,
                                      const lock::HolderInfo& forcer, Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    auto reply = session.run(
        scripts::force_release,
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history},
        {heartbeat_text, forcer.host, pid, forcer.user, forcer.command});
    TRY(reply);
    TRY_ASSIGN(auto decoded, decode_force_release(*reply));
    note_history_error(decoded.history_error, keys.history);
    return std::move(decoded.broken);
}

Result<BrokenPermits> force_release_permits(ScriptSession& session, const lock::Keys& keys,
                                            std::string_view permit, const lock::HolderInfo& forcer,
                                            Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    auto reply =
        session.run(scripts::sem_force_release,
                    {keys.sem, keys.permits, keys.squeue, keys.salive, keys.swake, keys.history},
                    {permit, heartbeat_text, forcer.host, pid, forcer.user, forcer.command});
    TRY(reply);
    TRY_ASSIGN(auto decoded, decode_sem_force_release(*reply));
    note_history_error(decoded.history_error, keys.history);
    return std::move(decoded.broken);
}

Result<lock::Forgotten> forget_name(ScriptSession& session, const lock::Keys& keys) {
    auto reply = session.run(
        scripts::forget,
        {keys.lock, keys.readers, keys.permits, keys.history, keys.runs, keys.fence, keys.slot},
        {});
    TRY(reply);
    return decode_forget(*reply);
}

} // namespace dlock::redis
