#include "redis/stores/latch_store.hpp"

#include "redis/scripts/script_reply.hpp"
#include "util/log.hpp"

#include <thread>

namespace dlock::redis {
namespace {

constexpr int kAttempts = 3;       // tries per script on transient errors
constexpr Millis kRetryPause{200}; // between them

std::string ms(Millis d) {
    return std::to_string(d.count());
}

// The reply of a latch script: an array of `size` integers.
Result<Reply> array_of(Result<Reply> reply, const EmbeddedScript& script, size_t size) {
    if (reply && (!reply->is_array() || reply->size() != size))
        return tl::unexpected(bad_reply(script));
    return reply;
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
    auto reply = array_of(run(scripts::latch_create, {keys.latch, keys.ids, keys.waiters},
                              {count_text, ttl_text, reset_id}),
                          scripts::latch_create, 3);
    TRY(reply);
    using Outcome = Created::Outcome;
    const int64_t status = (*reply)[0].as_int();
    const Outcome outcome = status == 1    ? Outcome::created
                            : status == 2  ? Outcome::reset
                            : status == -1 ? Outcome::conflict
                            : status == -2 ? Outcome::finished
                                           : Outcome::refreshed;
    return Created{outcome, (*reply)[1].as_int(), (*reply)[2].as_int()};
}

Result<LatchStore::CountedDown> LatchStore::count_down(const lock::LatchKeys& keys, int64_t n,
                                                       std::string_view request_id,
                                                       Millis wake_ttl) {
    const std::string n_text = std::to_string(n), wake_ttl_text = ms(wake_ttl);
    auto reply =
        array_of(run(scripts::latch_count_down, {keys.latch, keys.ids, keys.waiters, keys.wake},
                     {n_text, request_id, wake_ttl_text}),
                 scripts::latch_count_down, 3);
    TRY(reply);
    return CountedDown{(*reply)[0].as_int() != 0, (*reply)[1].as_int(), (*reply)[2].as_int()};
}

Result<LatchStore::Round> LatchStore::wait_round(const lock::LatchKeys& keys,
                                                 std::string_view waiter_id, Millis heartbeat) {
    const std::string heartbeat_text = ms(heartbeat);
    auto reply = array_of(run(scripts::latch_wait, {keys.latch, keys.waiters, keys.wake},
                              {waiter_id, heartbeat_text}),
                          scripts::latch_wait, 2);
    TRY(reply);
    const int64_t status = (*reply)[0].as_int();
    return Round{status == 0   ? Round::State::missing
                 : status == 1 ? Round::State::done
                               : Round::State::waiting,
                 (*reply)[1].as_int()};
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
    auto reply = array_of(run(scripts::latch_status, {keys.latch, keys.waiters}, {}),
                          scripts::latch_status, 5);
    TRY(reply);
    const auto& v = *reply;
    if (v[0].as_int() != 1)
        return std::optional<lock::LatchStatus>();
    return std::optional<lock::LatchStatus>(
        lock::LatchStatus{v[1].as_int(), v[2].as_int(), Millis(v[3].as_int()), v[4].as_int()});
}

} // namespace dlock::redis
