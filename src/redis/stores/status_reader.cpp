#include "redis/stores/status_reader.hpp"

#include "lock/keys.hpp"
#include "redis/scripts/script_reply.hpp"
#include "redis/stores/runs_reader.hpp"

#include <set>

namespace dlock::redis {
namespace {

// KEYS of lua/status.lua for one name.
std::vector<std::string> status_keys(const std::string& prefix, const std::string& name) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto latch = lock::LatchKeys::of(prefix, name);
    return {keys.lock,     keys.readers, keys.rinfo,   keys.alive,  latch.latch,
            latch.waiters, keys.sem,     keys.permits, keys.squeue, keys.runs};
}

// Holders in groups of 8: deadline, host, pid, user, cmd, since, fence, holds.
bool parse_holders(ReplyView list, size_t from, int64_t now_ms,
                   std::vector<lock::HolderStatus>& out) {
    if (!list.is_array() || (list.size() - from) % 8 != 0)
        return false;
    for (size_t i = from; i + 8 <= list.size(); i += 8)
        out.push_back(lock::HolderStatus{holder_at(list, i + 1), Millis(list[i].as_int() - now_ms),
                                         list[i + 7].as_int()});
    return true;
}

Result<lock::NameStatus> parse_status(const std::string& name, ReplyView v, int64_t& now_ms) {
    if (!v.is_array() || v.size() != 7)
        return tl::unexpected(bad_reply(scripts::status));
    now_ms = v[0].as_int();
    lock::NameStatus s;
    s.name = name;

    const auto lock = v[1];
    if (lock.size() == 10) {
        const bool done = lock[0].str() == "done";
        s.lock.state =
            done ? lock::LockStatus::State::min_hold : lock::LockStatus::State::exclusive;
        s.lock.holders.push_back(
            lock::HolderStatus{holder_at(lock, 2), Millis(lock[1].as_int()), lock[8].as_int()});
        s.lock.held_until_ms = done ? lock[9].as_int() : 0;
    } else if (lock.size() != 0) {
        return tl::unexpected(bad_reply(scripts::status));
    }
    if (!parse_holders(v[2], 0, now_ms, s.lock.holders))
        return tl::unexpected(bad_reply(scripts::status));
    if (s.lock.state == lock::LockStatus::State::free && !s.lock.holders.empty())
        s.lock.state = lock::LockStatus::State::shared;
    s.lock.waiters = v[3].as_int();

    const auto latch = v[4];
    if (latch.size() == 4)
        s.latch = lock::LatchStatus{latch[0].as_int(), latch[1].as_int(), Millis(latch[2].as_int()),
                                    latch[3].as_int()};
    const auto sem = v[5];
    if (sem.size() >= 2) {
        s.semaphore = lock::SemaphoreStatus{sem[0].as_int(), {}, sem[1].as_int()};
        if (!parse_holders(sem, 2, now_ms, s.semaphore->holders))
            return tl::unexpected(bad_reply(scripts::status));
    }
    s.runs = parse_runs(v[6]);
    return s;
}

} // namespace

Result<std::vector<std::string>> scan_names(ScriptSession& session, const std::string& prefix,
                                            lock::NameScope scope) {
    const std::string pattern = lock::names_pattern(prefix);
    std::set<std::string> names;
    TRY_ASSIGN(const auto masters, session.masters());
    for (Connection* conn : masters) {
        std::string cursor = "0";
        do {
            auto reply = conn->command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
            TRY(reply);
            if (!reply->is_array() || reply->size() != 2)
                return fail(Fault::internal, "unexpected reply from SCAN");
            cursor = std::string((*reply)[0].str());
            const auto keys = (*reply)[1];
            for (size_t i = 0; i < keys.size(); ++i)
                if (const auto name = lock::name_of(prefix, keys[i].str(), scope))
                    names.emplace(*name);
        } while (cursor != "0");
    }
    return std::vector<std::string>(names.begin(), names.end());
}

Result<lock::StatusReport> read_status(ScriptSession& session, const std::string& prefix,
                                       const std::vector<std::string>& names) {
    lock::StatusReport report;
    if (names.empty()) {
        TRY_ASSIGN(Connection * conn, session.connection());
        auto t = conn->command({"TIME"});
        TRY(t);
        report.server_now_ms = (*t)[0].as_int() * 1000 + (*t)[1].as_int() / 1000;
        return report;
    }
    // One round trip for all of them (two when the script must be loaded first).
    std::vector<std::vector<std::string>> keys;
    keys.reserve(names.size());
    for (const auto& name : names)
        keys.push_back(status_keys(prefix, name));
    std::vector<ScriptCall> calls;
    calls.reserve(names.size());
    for (const auto& k : keys)
        calls.push_back({std::vector<std::string_view>(k.begin(), k.end()),
                         std::vector<std::string_view>(kRunFields.begin(), kRunFields.end())});
    auto replies = session.run_each(scripts::status, calls);

    for (size_t i = 0; i < names.size(); ++i) {
        const auto& reply = replies[i];
        TRY(reply);
        auto parsed = parse_status(names[i], *reply, report.server_now_ms);
        TRY(parsed);
        report.names.push_back(std::move(*parsed));
    }
    return report;
}

Result<lock::SemaphorePermits> read_permits(ScriptSession& session, const std::string& prefix,
                                            const std::string& name) {
    // sem_status.lua: {now, limit, waiters, then per permit: id, deadline, host, pid, user,
    // cmd, since, fence}.
    constexpr size_t kHead = 3, kPermitFields = 8;
    const auto keys = lock::Keys::of(prefix, name);
    auto reply = session.run(scripts::sem_status, {keys.sem, keys.permits, keys.salive}, {});
    TRY(reply);
    const ReplyView v = *reply;
    if (!v.is_array() || v.size() < kHead || (v.size() - kHead) % kPermitFields != 0)
        return tl::unexpected(bad_reply(scripts::sem_status));
    lock::SemaphorePermits out{name, v[1].as_int(), v[2].as_int(), v[0].as_int(), {}};
    for (size_t i = kHead; i < v.size(); i += kPermitFields)
        out.permits.push_back(lock::PermitStatus{std::string(v[i].str()), holder_at(v, i + 2),
                                                 Millis(v[i + 1].as_int() - out.server_now_ms)});
    return out;
}

} // namespace dlock::redis
