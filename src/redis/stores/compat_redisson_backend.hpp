#pragma once

#include "redis/stores/compat_backend.hpp"

#include <optional>

namespace dlock::redis {

// `--compat redisson`: a lease in Redisson's RLock (and node-redisson's): the hash `<name>`, our
// field `<uuid>:1` -> reentrant count, renewed while the field is there, released by HINCRBY -1
// and at zero DEL + PUBLISH `0` on `redisson_lock__channel:{name}` (so Redisson's waiters wake
// at once). A waiter does as Redisson's: it subscribes to that channel before its first try and
// sleeps until a message or the PTTL the refusal gave (at most its deadline), then tries again.
class CompatRedissonBackend final : public CompatBackend {
  public:
    explicit CompatRedissonBackend(Deployment deployment)
        : CompatBackend(std::move(deployment), lock::CompatFormat::redisson) {}

    Result<bool> await_wake(const lock::Keys& keys, std::string_view waiter_id,
                            Millis timeout) override;
    Result<void> leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override;

  private:
    Result<CompatAcquireReply> take(const lock::Keys& keys, const std::string& value,
                                    const lock::AcquireRequest& request) override;
    const EmbeddedScript& renew_script() const override { return scripts::compat_redisson_renew; }
    Result<std::optional<int64_t>> give(const lock::Keys& keys, const std::string& value,
                                        const lock::ReleaseRequest& request, Millis keep) override;
    // Subscribes to the unlock channel of `name` on a connection of its own, once.
    void subscribe(const std::string& name);

    // The subscribed connection's session (nullopt: not subscribed, or it broke).
    std::optional<ScriptSession> subscriber_;
    Connection* subscribed_ = nullptr;
};

} // namespace dlock::redis
