#pragma once

#include "redis/stores/compat_backend.hpp"

namespace dlock::redis {

// `--compat setnx`: a lease in the one-string-key family (redis-py's Lock, node-redlock on one
// server, redsync, the seeds' SET NX lock): SET NX PX with our unique owner token, renewed and
// released only while the key still holds it. Nobody announces a release in this family, so a
// waiter polls: every 50-100 ms (uniformly jittered), never past its deadline.
class CompatSetnxBackend final : public CompatBackend {
  public:
    explicit CompatSetnxBackend(Deployment deployment)
        : CompatBackend(std::move(deployment), lock::CompatFormat::setnx) {}

    Result<bool> await_wake(const lock::Keys& keys, std::string_view waiter_id,
                            Millis timeout) override;

  private:
    Result<CompatAcquireReply> take(const lock::Keys& keys, const std::string& value,
                                    const lock::AcquireRequest& request) override;
    const EmbeddedScript& renew_script() const override { return scripts::compat_setnx_renew; }
    Result<std::optional<int64_t>> give(const lock::Keys& keys, const std::string& value,
                                        const lock::ReleaseRequest& request, Millis keep) override;
};

} // namespace dlock::redis
