#include "redis/stores/compat_redisson_backend.hpp"

#include "lock/lease_clock.hpp"
#include "util/duration.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <thread>

namespace dlock::redis {
namespace {

// Without a subscription (it failed): poll this often, as the setnx family does.
constexpr Millis kPollWithoutMessages{100};

} // namespace

void CompatRedissonBackend::subscribe(const std::string& name) {
    if (subscribed_)
        return;
    const std::string channel = lock::redisson_channel(name);
    ScriptSession& s = subscriber_.emplace(session_.deployment());
    auto conn = s.connection(name);
    auto confirmed = conn ? (*conn)->command({"SUBSCRIBE", channel})
                          : Result<Reply>(tl::unexpected(conn.error()));
    if (!confirmed) {
        // Waiting still works, by polling: worth a line at -v, not a failure.
        log::info("cannot subscribe to {}: {}; polling every {}", channel,
                  confirmed.error().message, format_duration(kPollWithoutMessages));
        subscriber_.reset();
        return;
    }
    subscribed_ = *conn;
}

Result<CompatAcquireReply> CompatRedissonBackend::take(const lock::Keys& keys,
                                                       const std::string& value,
                                                       const lock::AcquireRequest& r) {
    // Subscribed before the try, as Redisson does: a release between a refusal and the
    // subscription would otherwise go unheard until the PTTL.
    if (!r.waiter_id.empty())
        subscribe(keys.lock);
    const std::string ttl = std::to_string(r.ttl.count());
    auto reply = session_.run(scripts::compat_redisson_acquire, {keys.lock},
                              {value, ttl, replay(r.hold_id) ? "1" : "0"});
    TRY(reply);
    return decode_redisson_acquire(*reply);
}

Result<std::optional<int64_t>> CompatRedissonBackend::give(const lock::Keys& keys,
                                                           const std::string& value,
                                                           const lock::ReleaseRequest& r,
                                                           Millis keep) {
    const std::string channel = lock::redisson_channel(keys.lock);
    const std::string latch = lock::redisson_unlock_latch(keys.lock, r.hold_id);
    // The latch lasts as long as a retry of this release could come: a lease's default TTL.
    const std::string ttl = std::to_string(lock::kDefaultTtl.count());
    const std::string keep_ms = std::to_string(keep.count());
    auto reply = session_.run(scripts::compat_redisson_release, {keys.lock, channel, latch},
                              {value, ttl, keep_ms});
    TRY(reply);
    TRY_ASSIGN(const auto released, decode_redisson_release(*reply));
    if (!released.ours)
        return std::optional<int64_t>{};
    return std::optional<int64_t>(released.holds_left);
}

Result<bool> CompatRedissonBackend::await_wake(const lock::Keys&, std::string_view,
                                               Millis timeout) {
    if (!subscribed_) {
        std::this_thread::sleep_for(std::min(timeout, kPollWithoutMessages));
        return false;
    }
    auto message = subscribed_->next_push(timeout);
    if (!message) {
        subscribed_ = nullptr; // subscribed again before the next try
        subscriber_.reset();
        return tl::unexpected(message.error());
    }
    return message->has_value();
}

Result<void> CompatRedissonBackend::leave_queue(const lock::Keys&, std::string_view, Millis) {
    subscribed_ = nullptr;
    subscriber_.reset(); // closes the subscribed connection
    return {};
}

} // namespace dlock::redis
