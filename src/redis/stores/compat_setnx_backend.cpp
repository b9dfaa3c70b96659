#include "redis/stores/compat_setnx_backend.hpp"

#include "redis/scripts/script_reply.hpp"
#include "util/random.hpp"

#include <algorithm>
#include <string>
#include <thread>

namespace dlock::redis {
namespace {

// The poll interval: redis-py and Spring sleep 100 ms; jitter spreads dlock waiters apart.
constexpr Millis kPollMin{50};
constexpr Millis kPollMax{100};

Millis jittered_poll() {
    const auto span = static_cast<unsigned long>((kPollMax - kPollMin).count()) + 1;
    return kPollMin + Millis(static_cast<int64_t>(std::stoul(random_hex(2), nullptr, 16) % span));
}

} // namespace

Result<CompatAcquireReply> CompatSetnxBackend::take(const lock::Keys& keys,
                                                    const std::string& value,
                                                    const lock::AcquireRequest& r) {
    const std::string ttl = std::to_string(r.ttl.count());
    auto reply = session_.run(scripts::compat_setnx_acquire, {keys.lock}, {value, ttl});
    TRY(reply);
    return decode_setnx_acquire(*reply);
}

Result<std::optional<int64_t>> CompatSetnxBackend::give(const lock::Keys& keys,
                                                        const std::string& value,
                                                        const lock::ReleaseRequest&, Millis keep) {
    const std::string keep_ms = std::to_string(keep.count());
    auto reply = session_.run(scripts::compat_setnx_release, {keys.lock}, {value, keep_ms});
    TRY(reply);
    TRY_ASSIGN(const bool ours, flag_of(*reply, scripts::compat_setnx_release));
    if (!ours)
        return std::optional<int64_t>{};
    return std::optional<int64_t>(0);
}

Result<bool> CompatSetnxBackend::await_wake(const lock::Keys&, std::string_view, Millis timeout) {
    std::this_thread::sleep_for(std::min(timeout, jittered_poll()));
    return false; // not woken: the caller asks again
}

} // namespace dlock::redis
