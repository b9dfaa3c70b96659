#include "lock/lent_connection.hpp"

#include "util/log.hpp"

#include <algorithm>
#include <mutex>

namespace dlock::lock {
namespace {

// The run's backend, shared with its watchdog once lent.
struct Shared {
    std::mutex mutex;
    std::unique_ptr<Backend> backend;
};

// The run's side: every call under the mutex.
class Guarded final : public Backend, public History {
  public:
    explicit Guarded(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

    Result<AcquireOutcome> acquire(const Keys& keys, const AcquireRequest& request) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->acquire(keys, request);
    }
    std::vector<Result<Renewal>> renew(std::span<const RenewRequest> requests) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->renew(requests);
    }
    Result<std::optional<int64_t>> release(const Keys& keys, const ReleaseRequest& r) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->release(keys, r);
    }
    Result<bool> await_wake(const Keys& keys, std::string_view waiter_id, Millis timeout) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->await_wake(keys, waiter_id, timeout);
    }
    Result<Wake> await_grant(const Keys& keys, std::string_view waiter_id,
                             Millis timeout) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->await_grant(keys, waiter_id, timeout);
    }
    Result<void> leave_queue(const Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->leave_queue(keys, waiter_id, heartbeat);
    }
    History* history() override { return shared_->backend->history() ? this : nullptr; }
    Result<void> append(const Keys& keys, const HistoryFields& fields) override {
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->history()->append(keys, fields);
    }

  private:
    std::shared_ptr<Shared> shared_;
};

// The watchdog's side: its own connection, and the run's when its own was refused.
class Borrowing final : public Backend {
  public:
    Borrowing(std::unique_ptr<Backend> own, std::shared_ptr<Shared> shared,
              std::function<bool(const Error&)> refused)
        : own_(std::move(own)), shared_(std::move(shared)), refused_(std::move(refused)) {}

    std::vector<Result<Renewal>> renew(std::span<const RenewRequest> requests) override {
        auto results = own_->renew(requests);
        const bool was_refused = std::any_of(results.begin(), results.end(), [&](const auto& r) {
            return !r && refused_(r.error());
        });
        if (!was_refused)
            return results;
        log::debug("renewing over the run's connection: {}",
                   std::find_if(results.begin(), results.end(), [](const auto& r) { return !r; })
                       ->error()
                       .message);
        std::lock_guard lock(shared_->mutex);
        return shared_->backend->renew(requests);
    }
    Result<AcquireOutcome> acquire(const Keys& keys, const AcquireRequest& request) override {
        return own_->acquire(keys, request);
    }
    Result<std::optional<int64_t>> release(const Keys& keys, const ReleaseRequest& r) override {
        return own_->release(keys, r);
    }
    Result<bool> await_wake(const Keys& keys, std::string_view waiter_id, Millis timeout) override {
        return own_->await_wake(keys, waiter_id, timeout);
    }
    Result<Wake> await_grant(const Keys& keys, std::string_view waiter_id,
                             Millis timeout) override {
        return own_->await_grant(keys, waiter_id, timeout);
    }
    Result<void> leave_queue(const Keys& keys, std::string_view waiter_id,
                             Millis heartbeat) override {
        return own_->leave_queue(keys, waiter_id, heartbeat);
    }
    History* history() override { return own_->history(); }

  private:
    std::unique_ptr<Backend> own_;
    std::shared_ptr<Shared> shared_;
    std::function<bool(const Error&)> refused_;
};

} // namespace

Leases lend_connection(Leases leases, std::function<bool(const Error&)> refused) {
    auto shared = std::make_shared<Shared>();
    shared->backend = std::move(leases.backend);
    BackendFactory open = [shared, open_own = std::move(leases.factory),
                           refused = std::move(refused)]() -> Result<std::unique_ptr<Backend>> {
        TRY_ASSIGN(auto own, open_own());
        return std::unique_ptr<Backend>(
            std::make_unique<Borrowing>(std::move(own), shared, refused));
    };
    return Leases{std::make_unique<Guarded>(shared), std::move(open)};
}

} // namespace dlock::lock
