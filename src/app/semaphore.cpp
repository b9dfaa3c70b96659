#include "app/semaphore.hpp"

#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "redis/script_session.hpp"
#include "util/json.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace dlock::app {
namespace {

// sem_status.lua: {limit, waiters, now ms, then per permit: id, host, pid, user, cmd, since,
// fence, deadline}.
constexpr size_t kHead = 3;
constexpr size_t kPermitFields = 8;

} // namespace

Result<SemaphoreState> read_semaphore(const Connection& connection, const std::string& name) {
    const auto keys = lock::Keys::of(connection.prefix, name);
    redis::ScriptSession session(connection.redis);
    auto reply = session.run("sem_status", {keys.sem, keys.permits, keys.salive}, {});
    if (!reply)
        return tl::unexpected(reply.error());
    const auto& v = *reply;
    if (!v.is_array() || v.size() < kHead || (v.size() - kHead) % kPermitFields != 0)
        return fail(exit_code::internal, "unexpected reply from script sem_status.lua");
    SemaphoreState state{name, v[0].as_int(), v[1].as_int(), v[2].as_int(), {}};
    for (size_t i = kHead; i < v.size(); i += kPermitFields)
        state.holders.push_back(PermitHolder{std::string(v[i].str()), std::string(v[i + 1].str()),
                                             v[i + 2].as_int(), std::string(v[i + 3].str()),
                                             std::string(v[i + 4].str()), v[i + 5].as_int(),
                                             v[i + 7].as_int() - state.now_ms, v[i + 6].as_int()});
    return state;
}

std::string format_semaphore(const SemaphoreState& s) {
    std::string out =
        fmt::format("name     {}\nlimit    {}\nused     {}\nwaiters  {}\n", s.name,
                    s.limit > 0 ? std::to_string(s.limit) : "none", s.holders.size(), s.waiters);
    if (s.holders.empty())
        return out;
    std::vector<std::array<std::string, 8>> rows{
        {"PERMIT", "HOST", "PID", "USER", "SINCE", "TTL", "TOKEN", "COMMAND"}};
    for (const auto& h : s.holders)
        rows.push_back({h.permit, h.host, std::to_string(h.pid), h.user,
                        lock::local_time(h.since_ms, s.now_ms), format_duration(Millis(h.ttl_ms)),
                        std::to_string(h.fence), h.command});
    std::array<size_t, 8> width{};
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c + 1 < row.size(); ++c)
            line += fmt::format("{:<{}}  ", row[c], width[c]);
        out += line + row.back() + "\n";
    }
    return out;
}

std::string semaphore_json(const SemaphoreState& s) {
    std::string holders;
    for (const auto& h : s.holders)
        holders += fmt::format(
            "{}{{\"permit\":{},\"host\":{},\"pid\":{},\"user\":{},\"command\":{},"
            "\"since_ms\":{},\"ttl_ms\":{},\"fence\":{}}}",
            holders.empty() ? "" : ",", json_string(h.permit), json_string(h.host), h.pid,
            json_string(h.user), json_string(h.command), h.since_ms, h.ttl_ms, h.fence);
    return fmt::format("{{\"name\":{},\"limit\":{},\"used\":{},\"waiters\":{},\"holders\":[{}]}}\n",
                       json_string(s.name), s.limit, s.holders.size(), s.waiters, holders);
}

int semaphore_status(const Connection& connection, const SemaphoreStatusOptions& options) {
    auto state = read_semaphore(connection, options.name);
    if (!state) {
        log::error("{}", state.error().message);
        return state.error().exit_code;
    }
    out::print("{}", options.json ? semaphore_json(*state) : format_semaphore(*state));
    return state->holders.empty() ? exit_code::nothing : exit_code::ok;
}

} // namespace dlock::app
