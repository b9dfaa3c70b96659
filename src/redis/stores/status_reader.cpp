#include "redis/stores/status_reader.hpp"

#include "lock/keys.hpp"
#include "redis/stores/inspection_replies.hpp"
#include "redis/stores/runs_reader.hpp"

#include <set>

namespace dlock::redis {
namespace {

// KEYS of lua/status.lua for one name.
std::vector<std::string> status_keys(const std::string& prefix, const std::string& name) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto latch = lock::LatchKeys::of(prefix, name);
    return {keys.lock,     keys.readers, keys.rinfo,   keys.alive,  latch.latch,
            latch.waiters, keys.sem,     keys.permits, keys.squeue, keys.runs,
            keys.fence,    keys.history, keys.paused};
}

// The server's time from a TIME reply: {seconds, microseconds}, both numbers as text.
Result<int64_t> server_time_ms(ReplyView time) {
    const auto seconds = time[0].to_int(), micros = time[1].to_int();
    if (!time.is_array() || time.size() != 2 || !seconds || !micros)
        return fail(Fault::internal, "unexpected reply from TIME");
    return *seconds * 1000 + *micros / 1000;
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
        TRY_ASSIGN(report.server_now_ms, server_time_ms(*t));
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
        TRY_ASSIGN(auto parsed, decode_status(names[i], *reply));
        report.server_now_ms = parsed.now_ms;
        report.names.push_back(std::move(parsed.status));
    }
    return report;
}

Result<lock::SemaphorePermits> read_permits(ScriptSession& session, const std::string& prefix,
                                            const std::string& name) {
    const auto keys = lock::Keys::of(prefix, name);
    auto reply = session.run(scripts::sem_status, {keys.sem, keys.permits, keys.salive}, {});
    TRY(reply);
    return decode_sem_status(name, *reply);
}

} // namespace dlock::redis
