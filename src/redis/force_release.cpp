#include "redis/force_release.hpp"

#include "redis/script_reply.hpp"
#include "redis/script_runner.hpp"

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

} // namespace

Result<BrokenLock> force_release_lock(Connection& conn, const lock::Keys& keys,
                                      const lock::HolderInfo& forcer, Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    auto reply = run_script(
        conn, scripts::force_release,
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history},
        {heartbeat_text, forcer.host, pid, forcer.user, forcer.command});
    if (!reply)
        return tl::unexpected(reply.error());
    const ReplyView v = *reply;
    constexpr size_t kHead = 2;
    if (!v.is_array() || v.size() < kHead)
        return tl::unexpected(bad_reply(scripts::force_release));
    note_history_error(v, 1, keys.history);
    BrokenLock out{v[0].as_int(), {}};
    for (size_t i = kHead; i < v.size(); ++i) {
        const auto hold = v[i];
        if (hold.size() != kBrokenFields)
            return tl::unexpected(bad_reply(scripts::force_release));
        out.holds.push_back(BrokenHold{mode_of(hold[0].str()), holder_at(hold, 1)});
    }
    return out;
}

Result<BrokenPermits> force_release_permits(Connection& conn, const lock::Keys& keys,
                                            std::string_view permit, const lock::HolderInfo& forcer,
                                            Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string pid = std::to_string(forcer.pid);
    auto reply =
        run_script(conn, scripts::sem_force_release,
                   {keys.sem, keys.permits, keys.squeue, keys.salive, keys.swake, keys.history},
                   {permit, heartbeat_text, forcer.host, pid, forcer.user, forcer.command});
    if (!reply)
        return tl::unexpected(reply.error());
    const ReplyView v = *reply;
    constexpr size_t kHead = 3; // then the permits still held
    if (!v.is_array() || v.size() < kHead)
        return tl::unexpected(bad_reply(scripts::sem_force_release));
    note_history_error(v, 1, keys.history);
    BrokenPermits out{v[0].as_int(), {}};
    for (size_t i = kHead; i < v.size(); ++i) {
        const auto broken = v[i];
        if (broken.size() != kBrokenFields)
            return tl::unexpected(bad_reply(scripts::sem_force_release));
        out.permits.push_back(BrokenPermit{std::string(broken[0].str()), holder_at(broken, 1)});
    }
    return out;
}

} // namespace dlock::redis
