#include "redis/stores/semaphore_backend.hpp"

#include "redis/scripts/script_reply.hpp"
#include "redis/stores/lease_replies.hpp"
#include "redis/topology/replication.hpp"

#include <fmt/format.h>

namespace dlock::redis {

Result<lock::AcquireOutcome> SemaphoreBackend::acquire(const lock::Keys& keys,
                                                       const lock::AcquireRequest& r) {
    const std::string ttl = std::to_string(r.ttl.count());
    const std::string heartbeat = std::to_string(r.heartbeat.count());
    const std::string limit = std::to_string(limit_), pid = std::to_string(r.self.pid);
    auto [replies, acks, replication] = session_.run_acknowledged(
        scripts::sem_acquire,
        {keys.sem, keys.permits, keys.fence, keys.squeue, keys.salive, keys.swake},
        {r.owner, r.hold_id, ttl, r.waiter_id, heartbeat, limit, r.self.host, pid, r.self.user,
         r.self.command});
    TRY(replies.front());
    TRY_ASSIGN(auto reply, decode_sem_acquire(*replies.front()));
    if (reply.kind == SemAcquireReply::Kind::limit_differs)
        return fail(Fault::bad_input,
                    fmt::format("the semaphore has {} permit{} ({} held), not {}; use -p {} (the "
                                "limit changes only while nobody holds a permit)",
                                reply.limit, reply.limit == 1 ? "" : "s", reply.permits_held,
                                limit_, reply.limit));
    lock::AcquireOutcome out;
    if (reply.kind == SemAcquireReply::Kind::granted) {
        out.acquired = true;
        out.fence = reply.fence;
        out.holds = 1;
        out.shared = true; // renewed and released by its permit id
        out.permit_limit = limit_;
        out.permits_held = reply.permits_held;
        // Not held as --min-replicas asks: the caller gives it back.
        if (auto replicated = check_acknowledged(acks, replication, "the permit"); !replicated)
            out.unreplicated = replicated.error();
        return out;
    }
    out.lease_left = Millis(reply.left_ms);
    out.permit_limit = reply.limit;
    out.permits_held = reply.permits_held;
    out.waiters = reply.waiters;
    out.permit_holders = std::move(reply.holders);
    if (!out.permit_holders.empty())
        out.holder = out.permit_holders.front();
    return out;
}

std::vector<Result<lock::Renewal>>
SemaphoreBackend::renew(std::span<const lock::RenewRequest> requests) {
    std::vector<std::string> ttls;
    ttls.reserve(requests.size());
    for (const auto& r : requests)
        ttls.push_back(std::to_string(r.ttl.count()));
    std::vector<ScriptCall> calls;
    calls.reserve(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        calls.push_back({{r.keys.sem, r.keys.permits}, {r.owner, r.hold_id, ttls[i]}});
    }
    session_.confirm_master(); // a demoted master would accept the renewals for seconds
    auto [replies, acks, replication] = session_.run_each_acknowledged(scripts::sem_renew, calls);
    return acknowledged(as_renewals(std::move(replies), scripts::sem_renew), acks, replication);
}

Result<SemReleaseReply> SemaphoreBackend::give_back(const lock::Keys& keys, std::string_view owner,
                                                    std::string_view permit,
                                                    std::string_view waiter, Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string receipt = keys.released + std::string(permit);
    std::vector<std::string_view> key_list{keys.sem, keys.permits, keys.squeue, keys.salive,
                                           keys.swake};
    if (!permit.empty())
        key_list.push_back(receipt);
    auto reply =
        session_.run(scripts::sem_release, key_list, {owner, permit, waiter, heartbeat_text});
    TRY(reply);
    return decode_sem_release(*reply);
}

Result<std::optional<int64_t>> SemaphoreBackend::release(const lock::Keys& keys,
                                                         const lock::ReleaseRequest& r) {
    if (r.min_hold > Millis(0))
        return fail(Fault::internal, "--min-hold is not supported by this store");
    TRY_ASSIGN(const auto released, give_back(keys, r.owner, r.hold_id, "", r.heartbeat));
    if (!released.released)
        return std::optional<int64_t>{};
    return std::optional<int64_t>(0);
}

Result<bool> SemaphoreBackend::await_wake(const lock::Keys& keys, std::string_view waiter_id,
                                          Millis timeout) {
    return session_.blpop(keys.swake + std::string(waiter_id), timeout);
}

Result<void> SemaphoreBackend::leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                                           Millis heartbeat) {
    auto reply = give_back(keys, "", "", waiter_id, heartbeat);
    TRY(reply);
    return {};
}

} // namespace dlock::redis
