#include "redis/stores/single_store.hpp"

#include "lock/lent_connection.hpp"
#include "redis/protocol/server_error.hpp"
#include "redis/stores/backends.hpp"
#include "redis/stores/compat_inspection.hpp"
#include "redis/stores/force_release.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/latch_store.hpp"
#include "redis/stores/pause_store.hpp"
#include "redis/stores/slot_store.hpp"
#include "redis/stores/status_reader.hpp"

namespace dlock::redis {

SingleStore::SingleStore(Deployment deployment) : deployment_(std::move(deployment)) {}

lock::Capabilities SingleStore::capabilities() const {
    lock::Capabilities offered{true, true, true, true, true, true, ""};
    offered.compat = true;
    return offered;
}

lock::Leases SingleStore::leases(int64_t permits, const lock::HolderInfo&, Millis) {
    // A server at its maxclients would starve the watchdog of a connection of its own.
    return lock::lend_connection(
        {backend_for(deployment_, permits), backend_factory_for(deployment_, permits)},
        [](const Error& error) { return client_limit(error); });
}

lock::Leases SingleStore::compat_leases(lock::CompatFormat format) {
    return {compat_backend_for(deployment_, format), compat_backend_factory(deployment_, format)};
}

Result<ScriptSession*> SingleStore::session() {
    if (!session_) {
        ScriptSession& fresh = session_.emplace(deployment_);
        if (auto connected = fresh.connect(); !connected) {
            session_.reset(); // the next call tries again, as a fresh session would
            return tl::unexpected(connected.error());
        }
    }
    return &*session_;
}

Result<lock::CompatReading> SingleStore::compat_status(lock::CompatFormat, const std::string& key) {
    TRY_ASSIGN(ScriptSession * s, session());
    return read_compat(*s, key);
}

Result<lock::CompatReading> SingleStore::compat_force_release(lock::CompatFormat format,
                                                              const std::string& key,
                                                              const lock::Keys& keys,
                                                              const lock::HolderInfo& forcer) {
    TRY_ASSIGN(ScriptSession * s, session());
    return force_release_compat(*s, format, key, keys, forcer);
}

Result<std::vector<std::string>> SingleStore::names(const std::string& prefix,
                                                    lock::NameScope scope) {
    TRY_ASSIGN(ScriptSession * s, session());
    return scan_names(*s, prefix, scope);
}

Result<lock::StatusReading> SingleStore::status(const std::string& prefix,
                                                const std::vector<std::string>& names) {
    TRY_ASSIGN(ScriptSession * s, session());
    std::vector<std::string> wanted = names;
    if (wanted.empty()) {
        TRY_ASSIGN(wanted, scan_names(*s, prefix, lock::NameScope::in_use));
    }
    TRY_ASSIGN(auto report, read_status(*s, prefix, wanted));
    lock::StatusReading reading;
    reading.members.push_back({"", deployment_.display(), std::move(report)});
    return reading;
}

Result<std::vector<lock::HistoryEntry>> SingleStore::history(const lock::Keys& keys,
                                                             int64_t count) {
    TRY_ASSIGN(ScriptSession * s, session());
    return read_history(*s, keys.history, count);
}

Result<std::vector<lock::MemberBroken>> SingleStore::force_release(const lock::Keys& keys,
                                                                   const lock::HolderInfo& forcer,
                                                                   Millis heartbeat) {
    TRY_ASSIGN(ScriptSession * s, session());
    TRY_ASSIGN(auto broken, force_release_lock(*s, keys, forcer, heartbeat));
    std::vector<lock::MemberBroken> out;
    out.push_back({"", std::move(broken)});
    return out;
}

Result<std::vector<lock::MemberForgotten>> SingleStore::forget(const lock::Keys& keys) {
    TRY_ASSIGN(ScriptSession * s, session());
    TRY_ASSIGN(auto forgotten, forget_name(*s, keys));
    std::vector<lock::MemberForgotten> out;
    out.push_back({"", std::move(forgotten)});
    return out;
}

Result<std::vector<lock::MemberPaused>> SingleStore::pause(const lock::Keys& keys,
                                                           const lock::PauseRequest& request) {
    TRY_ASSIGN(ScriptSession * s, session());
    std::vector<lock::MemberPaused> out;
    out.push_back({"", pause_name(*s, keys, request)});
    TRY(out.front().paused);
    return out;
}

Result<std::vector<lock::MemberResumed>> SingleStore::resume(const lock::Keys& keys,
                                                             const lock::HolderInfo& who) {
    TRY_ASSIGN(ScriptSession * s, session());
    std::vector<lock::MemberResumed> out;
    out.push_back({"", resume_name(*s, keys, who)});
    TRY(out.front().resumed);
    return out;
}

Result<lock::SemaphorePermits> SingleStore::semaphore(const std::string& prefix,
                                                      const std::string& name) {
    TRY_ASSIGN(ScriptSession * s, session());
    return read_permits(*s, prefix, name);
}

Result<lock::BrokenPermits> SingleStore::force_release_permits(const lock::Keys& keys,
                                                               std::string_view permit,
                                                               const lock::HolderInfo& forcer,
                                                               Millis heartbeat) {
    TRY_ASSIGN(ScriptSession * s, session());
    return redis::force_release_permits(*s, keys, permit, forcer, heartbeat);
}

std::unique_ptr<lock::Latches> SingleStore::latches() {
    return std::make_unique<LatchStore>(deployment_);
}

std::unique_ptr<lock::Slots> SingleStore::slots() {
    return std::make_unique<SlotStore>(deployment_);
}

} // namespace dlock::redis
