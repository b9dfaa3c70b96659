#include "redis/stores/latch_store.hpp"

#include "redis/stores/latch_replies.hpp"
#include "util/log.hpp"

#include <thread>

namespace dlock::redis {
namespace {

constexpr int kAttempts = 3;       // tries per script on transient errors
constexpr Millis kRetryPause{200}; // between them

std::string ms(Millis d) {
    return std::to_string(d.count());
}

} // namespace

Result<Reply> LatchStore::run(const EmbeddedScript& script,
                              const std::vector<std::string_view>& keys,
                              const std::vector<std::string_view>& args) {
    Error last;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        if (attempt > 0)
            std::this_thread::sleep_for(kRetryPause);
        auto reply = session_.run(script, keys, args);
        if (reply)
            return reply;
        last = reply.error();
        if (!last.transient) // also a server never reached (see ScriptSession)
            break;
        log::debug("{}: {}; retrying", script.name, last.message);
    }
    return tl::unexpected(last);
}

Result<LatchStore::Created> LatchStore::create(const lock::LatchKeys& keys, int64_t count,
                                               Millis ttl, std::string_view reset_id) {
    const std::string count_text = std::to_string(count), ttl_text = ms(ttl);
    auto reply = run(scripts::latch_create, {keys.latch, keys.ids, keys.waiters},
                     {count_text, ttl_text, reset_id});
    TRY(reply);
    return decode_latch_create(*reply);
}

Result<LatchStore::CountedDown> LatchStore::count_down(const lock::LatchKeys& keys, int64_t n,
                                                       std::string_view request_id,
                                                       Millis wake_ttl) {
    const std::string n_text = std::to_string(n), wake_ttl_text = ms(wake_ttl);
    auto reply = run(scripts::latch_count_down, {keys.latch, keys.ids, keys.waiters, keys.wake},
                     {n_text, request_id, wake_ttl_text});
    TRY(reply);
    return decode_latch_count_down(*reply);
}

Result<LatchStore::Round> LatchStore::wait_round(const lock::LatchKeys& keys,
                                                 std::string_view waiter_id, Millis heartbeat) {
    const std::string heartbeat_text = ms(heartbeat);
    auto reply = run(scripts::latch_wait, {keys.latch, keys.waiters, keys.wake},
                     {waiter_id, heartbeat_text});
    TRY(reply);
    return decode_latch_wait(*reply);
}

Result<void> LatchStore::leave(const lock::LatchKeys& keys, std::string_view waiter_id) {
    return run(scripts::latch_leave, {keys.waiters, keys.wake}, {waiter_id}).map([](const Reply&) {
    });
}

Result<bool> LatchStore::await_token(const lock::LatchKeys& keys, std::string_view waiter_id,
                                     Millis block) {
    auto popped = session_.blpop(keys.wake + std::string(waiter_id), block);
    if (popped || !popped.error().transient)
        return popped;
    log::debug("BLPOP: {}", popped.error().message);
    std::this_thread::sleep_for(kRetryPause);
    return false;
}

Result<std::optional<lock::LatchStatus>> LatchStore::status(const lock::LatchKeys& keys) {
    auto reply = run(scripts::latch_status, {keys.latch, keys.waiters}, {});
    TRY(reply);
    return decode_latch_status(*reply);
}

} // namespace dlock::redis
