#pragma once

#include "lock/backend.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/stores/lease_replies.hpp"

#include <cstdint>

namespace dlock::redis {

// lock::Backend for one permit of a semaphore with `limit` permits (lua/sem_*.lua, keys
// sem/permits/squeue/salive/swake). Every permit is a hold of its own, identified by the
// request's hold id (the permit id): acquire reports it as a shared hold, so the run loop and
// the watchdog renew and release it by id. Asking for a limit other than the one in force
// while holders exist is a usage error; nothing is changed then.
class SemaphoreBackend final : public lock::Backend {
  public:
    SemaphoreBackend(Deployment deployment, int64_t limit)
        : session_(std::move(deployment)), limit_(limit) {}

    Result<void> connect() { return session_.connect(); }

    Result<lock::AcquireOutcome> acquire(const lock::Keys& keys,
                                         const lock::AcquireRequest& request) override;
    using lock::Backend::renew;
    // One sem_renew.lua per permit (the requests' hold ids), pipelined.
    std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> requests) override;
    // Gives back permit `hold_id` (if `owner` still holds it) and wakes the waiters that can now
    // take a permit: Some(0) when released, nullopt when it was not ours (any more). Refuses a
    // --min-hold; a semaphore keeps no history, so the exit status is not recorded.
    Result<std::optional<int64_t>> release(const lock::Keys& keys,
                                           const lock::ReleaseRequest& request) override;
    Result<bool> await_wake(const lock::Keys& keys, std::string_view waiter_id,
                            Millis timeout) override;
    Result<void> leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override;

  private:
    Result<SemReleaseReply> give_back(const lock::Keys& keys, std::string_view owner,
                                      std::string_view permit, std::string_view waiter,
                                      Millis heartbeat);

    ScriptSession session_;
    int64_t limit_;
};

} // namespace dlock::redis
