#include "redis/stores/semaphore_backend.hpp"

#include "redis/scripts/script_reply.hpp"
#include "redis/topology/replication.hpp"

#include <fmt/format.h>

namespace dlock::redis {
namespace {

// The head of a refusal of sem_acquire.lua, before its holders.
constexpr size_t kRefusalHead = 5;

} // namespace

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
    const auto& v = *replies.front();
    if (v.size() == 3 && v[0].as_int() == -1)
        return fail(Fault::bad_input,
                    fmt::format("the semaphore has {} permit{} ({} held), not {}; use -p {} (the "
                                "limit changes only while nobody holds a permit)",
                                v[1].as_int(), v[1].as_int() == 1 ? "" : "s", v[2].as_int(), limit_,
                                v[1].as_int()));
    lock::AcquireOutcome out;
    if (v.size() == 3 && v[0].as_int() == 1) {
        out.acquired = true;
        out.fence = v[1].as_int();
        out.holds = 1;
        out.shared = true; // renewed and released by its permit id
        out.permit_limit = limit_;
        out.permits_held = v[2].as_int();
        // Not held as --min-replicas asks: the caller gives it back.
        if (auto replicated = check_acknowledged(acks, replication, "the permit"); !replicated)
            out.unreplicated = replicated.error();
        return out;
    }
    if (v.size() < kRefusalHead || v[0].as_int() != 0 ||
        (v.size() - kRefusalHead) % kHolderFields != 0)
        return tl::unexpected(bad_reply(scripts::sem_acquire));
    out.lease_left = Millis(v[1].as_int());
    out.permit_limit = v[2].as_int();
    out.permits_held = v[3].as_int();
    out.waiters = v[4].as_int();
    for (size_t i = kRefusalHead; i < v.size(); i += kHolderFields)
        out.permit_holders.push_back(holder_at(v, i));
    if (!out.permit_holders.empty())
        out.holder = out.permit_holders.front();
    return out;
}

std::vector<Result<bool>> SemaphoreBackend::renew(std::span<const lock::RenewRequest> requests) {
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
    return acknowledged(as_flags(std::move(replies), scripts::sem_renew), acks, replication);
}

Result<Reply> SemaphoreBackend::give_back(const lock::Keys& keys, std::string_view owner,
                                          std::string_view permit, std::string_view waiter,
                                          Millis heartbeat) {
    const std::string heartbeat_text = std::to_string(heartbeat.count());
    const std::string receipt = keys.released + std::string(permit);
    std::vector<std::string_view> key_list{keys.sem, keys.permits, keys.squeue, keys.salive,
                                           keys.swake};
    if (!permit.empty())
        key_list.push_back(receipt);
    auto reply =
        session_.run(scripts::sem_release, key_list, {owner, permit, waiter, heartbeat_text});
    if (reply && reply->size() != 2)
        return tl::unexpected(bad_reply(scripts::sem_release));
    return reply;
}

Result<std::optional<int64_t>> SemaphoreBackend::release(const lock::Keys& keys,
                                                         const lock::ReleaseRequest& r) {
    if (r.min_hold > Millis(0))
        return fail(Fault::internal, "--min-hold is not supported by this store");
    auto reply = give_back(keys, r.owner, r.hold_id, "", r.heartbeat);
    TRY(reply);
    if ((*reply)[0].as_int() != 1)
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
