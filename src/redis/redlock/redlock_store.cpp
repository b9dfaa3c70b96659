#include "redis/redlock/redlock_store.hpp"

#include "redis/redlock/members.hpp"
#include "redis/redlock/quorum_status.hpp"
#include "redis/redlock/redlock_backend.hpp"
#include "redis/stores/force_release.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/pause_store.hpp"
#include "redis/stores/status_reader.hpp"

#include <set>

namespace dlock::redis {
namespace {

tl::unexpected<Error> not_offered() {
    return fail(Fault::internal, "not offered by a Redlock quorum");
}

} // namespace

RedlockStore::RedlockStore(std::vector<Deployment> members) : members_(std::move(members)) {}

lock::Capabilities RedlockStore::capabilities() const {
    lock::Capabilities offered;
    offered.lacking = "is not available with several --redis (a Redlock quorum): it offers "
                      "exclusive locks only";
    return offered;
}

lock::Leases RedlockStore::leases(int64_t, const lock::HolderInfo& self, Millis ttl) {
    return {std::make_unique<RedlockBackend>(members_, self, ttl),
            redlock_factory(members_, self, ttl)};
}

Result<std::vector<Result<lock::StatusReport>>>
RedlockStore::reports(const std::string& prefix, const std::vector<std::string>& names) {
    return on_every_member<lock::StatusReport>(
        members_, [&](ScriptSession& session) -> Result<lock::StatusReport> {
            std::vector<std::string> wanted = names;
            if (wanted.empty()) {
                TRY_ASSIGN(wanted, scan_names(session, prefix, lock::NameScope::in_use));
            }
            return read_status(session, prefix, wanted);
        });
}

Result<std::vector<std::string>> RedlockStore::names(const std::string& prefix,
                                                     lock::NameScope scope) {
    if (scope == lock::NameScope::in_use) {
        TRY_ASSIGN(const auto reading, status(prefix, {}));
        std::vector<std::string> names;
        for (const auto& m : reading.majority)
            names.push_back(m.name);
        return names;
    }
    TRY_ASSIGN(const auto each,
               on_every_member<std::vector<std::string>>(members_, [&](ScriptSession& session) {
                   return scan_names(session, prefix, scope);
               }));
    std::set<std::string> found;
    for (const auto& names : each)
        if (names)
            found.insert(names->begin(), names->end());
    return std::vector<std::string>(found.begin(), found.end());
}

Result<lock::StatusReading> RedlockStore::status(const std::string& prefix,
                                                 const std::vector<std::string>& names) {
    TRY_ASSIGN(auto each, reports(prefix, names));
    // The names asked for, else those in use on any member.
    std::set<std::string> shown(names.begin(), names.end());
    for (const auto& report : each)
        if (report)
            for (const auto& s : report->names)
                if (s.in_use() || !names.empty())
                    shown.insert(s.name);
    lock::StatusReading reading;
    reading.quorum = lock::quorum(members_.size());
    reading.majority =
        majorities(each, std::vector<std::string>(shown.begin(), shown.end()), members_.size());
    for (size_t i = 0; i < members_.size(); ++i)
        reading.members.push_back(
            {member_name(members_, i), members_[i].display(), std::move(each[i])});
    return reading;
}

Result<std::vector<lock::HistoryEntry>> RedlockStore::history(const lock::Keys& keys,
                                                              int64_t count) {
    // Each member's newest `count`: the merged newest `count` are among them.
    TRY_ASSIGN(const auto per_member, on_every_member<std::vector<lock::HistoryEntry>>(
                                          members_, [&](ScriptSession& session) {
                                              return read_history(session, keys.history, count);
                                          }));
    return merge_members(per_member, static_cast<size_t>(count));
}

Result<std::vector<lock::MemberBroken>> RedlockStore::force_release(const lock::Keys& keys,
                                                                    const lock::HolderInfo& forcer,
                                                                    Millis heartbeat) {
    TRY_ASSIGN(auto broken,
               on_every_member<lock::BrokenLock>(members_, [&](ScriptSession& session) {
                   return force_release_lock(session, keys, forcer, heartbeat);
               }));
    std::vector<lock::MemberBroken> out;
    for (size_t i = 0; i < members_.size(); ++i)
        out.push_back({member_name(members_, i), std::move(broken[i])});
    return out;
}

Result<std::vector<lock::MemberForgotten>> RedlockStore::forget(const lock::Keys& keys) {
    TRY_ASSIGN(auto forgotten,
               on_every_member<lock::Forgotten>(
                   members_, [&](ScriptSession& session) { return forget_name(session, keys); }));
    std::vector<lock::MemberForgotten> out;
    for (size_t i = 0; i < members_.size(); ++i)
        out.push_back({member_name(members_, i), std::move(forgotten[i])});
    return out;
}

Result<std::vector<lock::MemberPaused>> RedlockStore::pause(const lock::Keys& keys,
                                                            const lock::PauseRequest& request) {
    TRY_ASSIGN(auto paused, on_every_member<lock::Paused>(members_, [&](ScriptSession& session) {
                   return pause_name(session, keys, request);
               }));
    std::vector<lock::MemberPaused> out;
    for (size_t i = 0; i < members_.size(); ++i)
        out.push_back({member_name(members_, i), std::move(paused[i])});
    return out;
}

Result<std::vector<lock::MemberResumed>> RedlockStore::resume(const lock::Keys& keys,
                                                              const lock::HolderInfo& who) {
    TRY_ASSIGN(auto resumed,
               on_every_member<std::optional<lock::Resumed>>(members_, [&](ScriptSession& session) {
                   return resume_name(session, keys, who);
               }));
    std::vector<lock::MemberResumed> out;
    for (size_t i = 0; i < members_.size(); ++i)
        out.push_back({member_name(members_, i), std::move(resumed[i])});
    return out;
}

Result<lock::SemaphorePermits> RedlockStore::semaphore(const std::string&, const std::string&) {
    return not_offered();
}

Result<lock::BrokenPermits> RedlockStore::force_release_permits(const lock::Keys&, std::string_view,
                                                                const lock::HolderInfo&, Millis) {
    return not_offered();
}

std::unique_ptr<lock::Latches> RedlockStore::latches() {
    return nullptr;
}

} // namespace dlock::redis
