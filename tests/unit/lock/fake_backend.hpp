#pragma once

#include "lock/backend.hpp"

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace dlock::test {

// A scripted lock::Backend: replies are taken from queues (the default once a queue is empty)
// and every call is recorded. Thread-safe, so a watchdog thread can use it.
class FakeBackend : public lock::Backend {
  public:
    std::deque<Result<lock::AcquireOutcome>> acquire_replies;
    Result<lock::AcquireOutcome> acquire_default = held_by_other();
    std::deque<Result<bool>> await_replies;
    bool await_default = false;             // after sleeping the whole timeout
    std::deque<Result<bool>> renew_replies; // one per lease renewed
    Result<bool> renew_default = true;
    std::set<std::string> gone_owners;         // their leases are no longer ours (renew says false)
    std::optional<lock::ForcedRelease> forced; // told with every "no longer ours"

    std::deque<Result<std::optional<int64_t>>> release_replies;
    Result<std::optional<int64_t>> release_default = std::optional<int64_t>(0);

    struct ReleaseCall {
        std::string lock, owner, hold;
        bool shared = false;
    };

    std::vector<lock::AcquireRequest> acquire_calls;
    std::vector<std::string> acquire_keys; // the lock key of each acquire call
    std::vector<ReleaseCall> release_calls;
    std::vector<Millis> await_timeouts;
    std::vector<std::string> await_ids;
    std::vector<std::pair<std::string, Millis>> leave_calls;
    std::vector<Millis> renew_ttls; // one per lease renewed
    std::vector<std::string> renew_owners;
    std::vector<std::string> renew_holds;
    std::vector<bool> renew_shared;
    std::vector<size_t> renew_batches; // leases per renew call

    static lock::AcquireOutcome held_by_other(Millis lease_left = Millis(60'000)) {
        lock::AcquireOutcome out;
        out.lease_left = lease_left;
        out.holder = lock::HolderInfo{"web-9", 99, "carol", "./other.sh", 1, 5};
        out.waiters = 1;
        return out;
    }
    static lock::AcquireOutcome acquired(int64_t fence, int64_t holds = 1) {
        lock::AcquireOutcome out;
        out.acquired = true;
        out.fence = fence;
        out.holds = holds;
        return out;
    }
    static tl::unexpected<Error> transient() {
        return fail(dlock::Fault::unavailable, "connection lost", true);
    }
    // Redis cannot be connected to at all (as Connection::open reports it).
    static tl::unexpected<Error> unreachable() {
        return tl::unexpected(Error{dlock::Fault::unavailable, "cannot reach Redis", true, true});
    }

    Result<lock::AcquireOutcome> acquire(const lock::Keys& keys,
                                         const lock::AcquireRequest& r) override {
        std::lock_guard lock(mutex_);
        acquire_calls.push_back(r);
        acquire_keys.push_back(keys.lock);
        return next(acquire_replies, acquire_default);
    }
    std::vector<Result<lock::Renewal>>
    renew(std::span<const lock::RenewRequest> requests) override {
        std::lock_guard lock(mutex_);
        renew_batches.push_back(requests.size());
        std::vector<Result<lock::Renewal>> results;
        for (const auto& r : requests) {
            renew_owners.emplace_back(r.owner);
            renew_holds.emplace_back(r.hold_id);
            renew_ttls.push_back(r.ttl);
            renew_shared.push_back(r.shared);
            const Result<bool> reply = gone_owners.count(std::string(r.owner))
                                           ? Result<bool>(false)
                                           : next(renew_replies, renew_default);
            if (!reply)
                results.emplace_back(tl::unexpected(reply.error()));
            else
                results.emplace_back(lock::Renewal{*reply, *reply ? std::nullopt : forced});
        }
        return results;
    }
    Result<std::optional<int64_t>> release(const lock::Keys& keys,
                                           const lock::ReleaseRequest& r) override {
        std::lock_guard lock(mutex_);
        release_calls.push_back(
            {keys.lock, std::string(r.owner), std::string(r.hold_id), r.shared});
        return next(release_replies, release_default);
    }
    Result<bool> await_wake(const lock::Keys&, std::string_view id, Millis timeout) override {
        std::unique_lock lock(mutex_);
        await_ids.emplace_back(id);
        await_timeouts.push_back(timeout);
        if (!await_replies.empty())
            return next(await_replies, Result<bool>(false));
        lock.unlock();
        std::this_thread::sleep_for(timeout);
        return await_default;
    }
    Result<void> leave_queue(const lock::Keys&, std::string_view id, Millis heartbeat) override {
        std::lock_guard lock(mutex_);
        leave_calls.emplace_back(std::string(id), heartbeat);
        return {};
    }

    size_t renew_count() {
        std::lock_guard lock(mutex_);
        return renew_ttls.size();
    }
    std::vector<std::string> renewed_owners() {
        std::lock_guard lock(mutex_);
        return renew_owners;
    }
    std::vector<size_t> batches() {
        std::lock_guard lock(mutex_);
        return renew_batches;
    }

  private:
    template <typename T>
    static T next(std::deque<T>& queue, const T& fallback) {
        if (queue.empty())
            return fallback;
        T value = std::move(queue.front());
        queue.pop_front();
        return value;
    }

    std::mutex mutex_;
};

// Hands out backends that all forward to one FakeBackend, counting how often it was opened.
struct FakeFactory {
    FakeBackend& target;
    std::atomic<int> opened{0};
    std::atomic<int> failures_left{0}; // opening fails this many times first (-1: always)

    lock::BackendFactory make() {
        return [this]() -> Result<std::unique_ptr<lock::Backend>> {
            ++opened;
            if (failures_left.load() != 0) {
                if (failures_left.load() > 0)
                    --failures_left;
                return FakeBackend::transient();
            }
            return std::unique_ptr<lock::Backend>(std::make_unique<Forward>(target));
        };
    }

  private:
    struct Forward : lock::Backend {
        explicit Forward(lock::Backend& t) : t(t) {}
        Result<lock::AcquireOutcome> acquire(const lock::Keys& k,
                                             const lock::AcquireRequest& r) override {
            return t.acquire(k, r);
        }
        std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> rs) override {
            return t.renew(rs);
        }
        Result<std::optional<int64_t>> release(const lock::Keys& k,
                                               const lock::ReleaseRequest& r) override {
            return t.release(k, r);
        }
        Result<bool> await_wake(const lock::Keys& k, std::string_view w, Millis to) override {
            return t.await_wake(k, w, to);
        }
        Result<void> leave_queue(const lock::Keys& k, std::string_view w, Millis hb) override {
            return t.leave_queue(k, w, hb);
        }
        lock::Backend& t;
    };
};

} // namespace dlock::test
