#pragma once

#include "lock/backend.hpp"
#include "redis/stores/lock_backend.hpp"
#include "redis/topology/deployment.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlock::redis {

// lock::Backend over N independent Redis deployments (Redlock): every call goes to all members
// at once, one thread each, and counts a majority (lock/quorum.hpp).
// - acquire: the same owner and hold id to every member (acquire.lua without a queue); held when
//   a majority granted it within the lease's validity. The fencing token is then the largest
//   counter the majority returned, committed back on the members that granted it
//   (lua/fence_commit.lua), and valid only if a majority committed it in time: any later
//   majority meets one of them, whose counter is then past it. Otherwise the hold is given back
//   on every member, answered or not, and the result is a refusal naming the holder most members
//   saw, or, when too many members failed for a majority, an error naming each one's failure.
// - renew: extend on every member, or take again where the lease is missing and the name free (a
//   member that restarted empty is repaired); a renewal counts on a majority only.
// - release: on every member; ours if a majority said so, gone if a majority said not ours.
// - No queue: a waiter retries after a random 50-250 ms (members' queues would disagree).
// Shared holds, semaphores, latches and --min-hold are not offered (the caller refuses them).
class RedlockBackend final : public lock::Backend, public lock::History {
  public:
    // `self` is written as the holder where a renewal takes a member back. A member gets at most
    // a tenth of `ttl` (at least 100 ms, at most the configured timeouts) to connect and to
    // answer: one that takes longer holds up every round for nothing.
    RedlockBackend(const std::vector<Deployment>& members, lock::HolderInfo self, Millis ttl);

    // Connects to every member; an error only when a majority cannot be reached.
    Result<void> connect();

    Result<lock::AcquireOutcome> acquire(const lock::Keys& keys,
                                         const lock::AcquireRequest& request) override;
    using lock::Backend::renew;
    std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> requests) override;
    Result<std::optional<int64_t>> release(const lock::Keys& keys,
                                           const lock::ReleaseRequest& r) override;
    Result<bool> await_wake(const lock::Keys& keys, std::string_view waiter_id,
                            Millis timeout) override;
    Result<void> leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override;

    lock::History* history() override { return this; }
    // Appended on every member; an error only when no member took it.
    Result<void> append(const lock::Keys& keys, const lock::HistoryFields& fields) override;

    size_t size() const { return members_.size(); }

  private:
    // "member 2 (h:6380): <message>" for each failure, in member order.
    template <typename T>
    std::string failures(const std::vector<Result<T>>& results) const;
    std::string name_of(size_t member) const;
    // Takes the lease of `request` again on `member`, which lost it while a majority kept it,
    // if the name is free there.
    void retake(size_t member, const lock::RenewRequest& request);
    // Every member's answer to the acquire.
    std::vector<Result<lock::AcquireOutcome>> votes_for(const lock::Keys& keys,
                                                        const lock::AcquireRequest& r);
    // The hold of the `granted` majority, when its fencing token is committed on a majority
    // within the lease's validity; nullopt otherwise.
    std::optional<lock::AcquireOutcome>
    commit(const lock::Keys& keys, const lock::AcquireRequest& r,
           const std::vector<Result<lock::AcquireOutcome>>& votes,
           const std::vector<size_t>& granted, std::chrono::steady_clock::time_point sent_at);
    // Not held: the holder most members saw, or the error when no majority answered or the
    // majority came too late.
    Result<lock::AcquireOutcome>
    refusal(const lock::Keys& keys, const lock::AcquireRequest& r,
            const std::vector<Result<lock::AcquireOutcome>>& votes) const;
    // Removes from `granted` the members whose fencing token is outside lock::fence_bound (a
    // poisoned counter, a clock far off) and turns their vote into a failure, logged at warn:
    // such a token is never used nor committed to the other members.
    void drop_absurd_fences(const lock::Keys& keys,
                            std::vector<Result<lock::AcquireOutcome>>& votes,
                            std::vector<size_t>& granted) const;

    std::vector<std::unique_ptr<LockBackend>> members_;
    lock::HolderInfo self_;
};

// A factory for the watchdog: each call opens a new RedlockBackend and connects it.
lock::BackendFactory redlock_factory(std::vector<Deployment> members, lock::HolderInfo self,
                                     Millis ttl);

} // namespace dlock::redis
