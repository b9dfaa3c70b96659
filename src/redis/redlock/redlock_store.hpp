#pragma once

#include "lock/store.hpp"
#include "redis/topology/deployment.hpp"

#include <vector>

namespace dlock::redis {

// lock::Store over a Redlock quorum of independent deployments: exclusive leases through
// RedlockBackend; status, history and release --force ask every member at once and need a
// majority to answer (redis/redlock/members.hpp). Shared holds, semaphores, latches, --min-hold
// and bench are not offered: members' queues and counters would disagree.
class RedlockStore final : public lock::Store {
  public:
    explicit RedlockStore(std::vector<Deployment> members);

    lock::Capabilities capabilities() const override;
    int servers() const override { return static_cast<int>(members_.size()); }
    lock::Leases leases(int64_t permits, const lock::HolderInfo& self, Millis ttl) override;

    Result<std::vector<std::string>> names(const std::string& prefix,
                                           lock::NameScope scope) override;
    Result<lock::StatusReading> status(const std::string& prefix,
                                       const std::vector<std::string>& names) override;
    Result<std::vector<lock::HistoryEntry>> history(const lock::Keys& keys, int64_t count) override;
    Result<std::vector<lock::MemberBroken>> force_release(const lock::Keys& keys,
                                                          const lock::HolderInfo& forcer,
                                                          Millis heartbeat) override;
    Result<std::vector<lock::MemberForgotten>> forget(const lock::Keys& keys) override;
    Result<std::vector<lock::MemberPaused>> pause(const lock::Keys& keys,
                                                  const lock::PauseRequest& request) override;
    Result<std::vector<lock::MemberResumed>> resume(const lock::Keys& keys,
                                                    const lock::HolderInfo& who) override;
    Result<lock::SemaphorePermits> semaphore(const std::string& prefix,
                                             const std::string& name) override;
    Result<lock::BrokenPermits> force_release_permits(const lock::Keys& keys,
                                                      std::string_view permit,
                                                      const lock::HolderInfo& forcer,
                                                      Millis heartbeat) override;
    std::unique_ptr<lock::Latches> latches() override;

  private:
    Result<std::vector<Result<lock::StatusReport>>> reports(const std::string& prefix,
                                                            const std::vector<std::string>& names);

    std::vector<Deployment> members_;
};

} // namespace dlock::redis
