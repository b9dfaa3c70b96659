#pragma once

#include "lock/store.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/topology/deployment.hpp"

#include <optional>

namespace dlock::redis {

// lock::Store over one deployment (a server, Sentinel or Cluster: ScriptSession routes each
// call by key). Offers everything. The inspection calls share one session, connected on first
// use; leases and latches open their own.
class SingleStore final : public lock::Store {
  public:
    explicit SingleStore(Deployment deployment);

    lock::Capabilities capabilities() const override;
    int servers() const override { return 1; }
    lock::Leases leases(int64_t permits, const lock::HolderInfo& self, Millis ttl) override;
    lock::Leases compat_leases(lock::CompatFormat format) override;
    Result<lock::CompatReading> compat_status(lock::CompatFormat format,
                                              const std::string& key) override;
    Result<lock::CompatReading> compat_force_release(lock::CompatFormat format,
                                                     const std::string& key, const lock::Keys& keys,
                                                     const lock::HolderInfo& forcer) override;

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
    std::unique_ptr<lock::Slots> slots() override;

  private:
    Result<ScriptSession*> session();

    Deployment deployment_;
    // Made and connected by the first inspection call: a run takes its leases through its own
    // backends and never needs it.
    std::optional<ScriptSession> session_;
};

} // namespace dlock::redis
