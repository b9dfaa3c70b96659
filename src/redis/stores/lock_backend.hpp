#pragma once

#include "lock/backend.hpp"
#include "redis/scripts/script_session.hpp"

#include <optional>

namespace dlock::redis {

// lock::Backend over a single Redis server, one connection, reopened after I/O errors. Locks
// keep a history (lua/history_add.lua for the events no script sees).
class LockBackend final : public lock::Backend, public lock::History {
  public:
    explicit LockBackend(Deployment deployment) : session_(std::move(deployment)) {}

    // Opens the connection now, so "Redis unreachable" is reported before anything else.
    Result<void> connect() { return session_.connect(); }

    Result<lock::AcquireOutcome> acquire(const lock::Keys& keys,
                                         const lock::AcquireRequest& request) override;
    using lock::Backend::renew;
    // One renew.lua per lease, pipelined.
    std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> requests) override;
    Result<std::optional<int64_t>> release(const lock::Keys& keys,
                                           const lock::ReleaseRequest& request) override;
    Result<bool> await_wake(const lock::Keys& keys, std::string_view waiter_id,
                            Millis timeout) override;
    Result<lock::Wake> await_grant(const lock::Keys& keys, std::string_view waiter_id,
                                   Millis timeout) override;
    Result<void> leave_queue(const lock::Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override;

    lock::History* history() override { return this; }
    Result<void> append(const lock::Keys& keys, const lock::HistoryFields& fields) override;

    // Redlock's second round (lua/fence_commit.lua): true when `owner` holds the lock here and
    // the fencing counter now is at least `token`.
    Result<bool> commit_fence(const lock::Keys& keys, std::string_view owner, int64_t token);
    // Where this backend's server is, for messages.
    std::string display() const { return session_.deployment().display(); }

  private:
    Result<Reply> run(const EmbeddedScript& script, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args) {
        return session_.run(script, keys, args);
    }

    ScriptSession session_;
};

// A factory for lock::BackendFactory: each call opens a new connection.
lock::BackendFactory backend_factory(Deployment deployment);

} // namespace dlock::redis
