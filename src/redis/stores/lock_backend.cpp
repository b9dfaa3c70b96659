#include "redis/stores/lock_backend.hpp"

#include "redis/scripts/script_reply.hpp"
#include "redis/stores/backends.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/lease_replies.hpp"
#include "redis/topology/replication.hpp"

#include <algorithm>
#include <charconv>

namespace dlock::redis {
namespace {

std::string ms(Millis d) {
    return std::to_string(d.count());
}

// A release hands the lease to the head of the queue only if that waiter asked for grants: not
// when its leases must be acknowledged by replicas (--min-replicas), which a release's grant
// is not. A grant is a token "g<fencing token>" in the waiter's wake list (lua/lib/grant.lua).
bool grants_on(const Deployment& d) {
    const bool replicated = d.replication.min_replicas > 0 ||
                            (d.replication.automatic && d.kind == Deployment::Kind::sentinel);
    return !replicated;
}

constexpr std::string_view kGrantPrefix = "g";
constexpr std::string_view kNudge = "n"; // next in the queue: come back within a heartbeat

std::optional<int64_t> granted_fence(std::string_view token) {
    if (!token.starts_with(kGrantPrefix))
        return std::nullopt;
    token.remove_prefix(kGrantPrefix.size());
    int64_t fence = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), fence);
    if (ec != std::errc() || end != token.data() + token.size() || fence <= 0)
        return std::nullopt;
    return fence;
}

} // namespace

Result<lock::AcquireOutcome> LockBackend::acquire(const lock::Keys& keys,
                                                  const lock::AcquireRequest& r) {
    const std::string ttl = ms(r.ttl), heartbeat = ms(r.heartbeat);
    const std::string pid = std::to_string(r.self.pid);
    std::vector<std::string_view> key_list{keys.lock,    keys.fence,   keys.queue, keys.alive,
                                           keys.wake,    keys.readers, keys.rinfo, keys.xqueue,
                                           keys.history, keys.runs,    keys.paused};
    if (grants_on(session_.deployment()))
        key_list.push_back(keys.winfo);
    auto [replies, acks, replication] = session_.run_acknowledged(
        scripts::acquire, key_list,
        {r.owner, r.hold_id, ttl, r.waiter_id, heartbeat, r.self.host, pid, r.self.user,
         r.self.command, r.shared ? "s" : "x", r.final_refusal ? "1" : "0"});
    TRY(replies.front());
    TRY_ASSIGN(const auto reply, decode_acquire(*replies.front()));
    note_history_error(reply.history_error, keys.history);
    if (reply.kind == AcquireReply::Kind::upgrade_refused)
        return fail(Fault::bad_input, "it is held shared by this owner, and a shared hold "
                                      "cannot be upgraded to exclusive");
    lock::AcquireOutcome out;
    if (reply.kind == AcquireReply::Kind::paused) {
        out.lease_left = Millis(-1);
        out.paused = reply.pause;
        return out;
    }
    if (reply.kind == AcquireReply::Kind::granted) {
        out.acquired = true;
        out.fence = reply.fence;
        out.holds = reply.holds;
        out.shared = reply.shared;
        // Not held as --min-replicas asks: the caller gives it back.
        if (auto replicated = check_acknowledged(acks, replication, "the lock"); !replicated)
            out.unreplicated = replicated.error();
        return out;
    }
    out.lease_left = Millis(reply.left_ms);
    if (!reply.holder.host.empty() || reply.holder.pid != 0)
        out.holder = reply.holder;
    out.waiters = reply.waiters;
    out.shared_holders = reply.shared_holders;
    out.held_until_ms = reply.held_until_ms;
    // A waiter blocks for a third of this: a reply must not make that wait unbounded.
    out.heartbeat_window =
        std::clamp(Millis(reply.window_ms), Millis(0), r.heartbeat * lock::kMaxHeartbeatWindows);
    return out;
}

std::vector<Result<lock::Renewal>>
LockBackend::renew(std::span<const lock::RenewRequest> requests) {
    std::vector<std::string> ttls, fences;
    ttls.reserve(requests.size());
    fences.reserve(requests.size());
    for (const auto& r : requests) {
        ttls.push_back(ms(r.ttl));
        fences.push_back(r.fence > 0 ? std::to_string(r.fence) : "");
    }
    std::vector<ScriptCall> calls;
    calls.reserve(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        // The history and the token find who broke a lease that is gone (only then read).
        calls.push_back({{r.keys.lock, r.keys.readers, r.keys.rinfo, r.keys.history},
                         {r.owner, ttls[i], r.shared ? "s" : "x", r.hold_id, fences[i]}});
    }
    session_.confirm_master(); // a demoted master would accept the renewals for seconds
    auto [replies, acks, replication] = session_.run_each_acknowledged(scripts::renew, calls);
    return acknowledged(as_renewals(std::move(replies), scripts::renew), acks, replication);
}

Result<std::optional<int64_t>> LockBackend::release(const lock::Keys& keys,
                                                    const lock::ReleaseRequest& r) {
    const std::string heartbeat = ms(r.heartbeat), min_hold = ms(r.min_hold);
    const std::string exit_status = r.exit_status ? std::to_string(*r.exit_status) : "";
    const std::string fence = r.fence > 0 ? std::to_string(r.fence) : "";
    auto reply = run(scripts::release,
                     {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo,
                      keys.xqueue, keys.history, keys.winfo, keys.fence, keys.runs},
                     {r.owner, r.hold_id, heartbeat, r.shared ? "s" : "x", exit_status, min_hold,
                      fence, r.outcome ? lock::outcome_name(*r.outcome) : ""});
    TRY(reply);
    TRY_ASSIGN(const auto released, decode_release(*reply));
    note_history_error(released.history_error, keys.history);
    if (!released.ours)
        return std::optional<int64_t>{};
    return std::optional<int64_t>(released.holds_left);
}

Result<bool> LockBackend::await_wake(const lock::Keys& keys, std::string_view waiter_id,
                                     Millis timeout) {
    return session_.blpop(keys.wake + std::string(waiter_id), timeout);
}

Result<lock::Wake> LockBackend::await_grant(const lock::Keys& keys, std::string_view waiter_id,
                                            Millis timeout) {
    auto popped = session_.blpop_value(keys.wake + std::string(waiter_id), timeout);
    TRY(popped);
    if (!*popped)
        return lock::Wake{};
    return lock::Wake{true, granted_fence(**popped), **popped == kNudge};
}

Result<void> LockBackend::leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                                      Millis heartbeat) {
    const std::string heartbeat_text = ms(heartbeat);
    auto reply = run(scripts::leave,
                     {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.xqueue,
                      keys.winfo, keys.fence, keys.history},
                     {waiter_id, heartbeat_text});
    TRY(reply);
    return {};
}

Result<void> LockBackend::append(const lock::Keys& keys, const lock::HistoryFields& fields) {
    return append_history(session_, keys.history, keys.runs, fields);
}

Result<bool> LockBackend::commit_fence(const lock::Keys& keys, std::string_view owner,
                                       int64_t token) {
    const std::string digits = std::to_string(token);
    auto reply = run(scripts::fence_commit, {keys.lock, keys.fence}, {owner, digits});
    TRY(reply);
    return flag_of(*reply, scripts::fence_commit);
}

lock::BackendFactory backend_factory(Deployment deployment) {
    return connecting_factory<LockBackend>(std::move(deployment));
}

} // namespace dlock::redis
