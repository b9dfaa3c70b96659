#include "app/latch.hpp"

#include "lock/keys.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/random.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <optional>

namespace dlock::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr Millis kWakeTtl{2 * kLatchWaiterHeartbeat.count()};

tl::unexpected<Error> no_such(std::string_view name) {
    return fail(Fault::no_such_latch, fmt::format("no such latch {}", name));
}

// The store's latches, or the refusal of a store that has none.
Result<std::unique_ptr<lock::Latches>> latches_of(lock::Store& store) {
    const lock::Capabilities offered = store.capabilities();
    TRY(lock::require(offered.latches, offered, "dlock latch"));
    return store.latches();
}

} // namespace

Result<int64_t> parse_latch_count(std::string_view text, std::string_view what) {
    const bool digits =
        !text.empty() && text.size() <= 10 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    int64_t value = 0;
    if (digits)
        for (char c : text)
            value = value * 10 + (c - '0');
    if (!digits || value < 1 || value > kMaxLatchCount)
        return usage_error(fmt::format("{} must be an integer from 1 to {}, not {}", what,
                                       kMaxLatchCount, quote(text)));
    return value;
}

Result<int> latch_create(lock::Store& store, const Target& target,
                         const LatchCreateOptions& options) {
    TRY_ASSIGN(const auto latches, latches_of(store));
    const auto keys = lock::LatchKeys::of(target.prefix, options.name);
    // A retried reset carries the same id: it does not start yet another round.
    auto created = latches->create(keys, options.count, options.ttl,
                                   options.reset ? random_hex(16) : std::string());
    TRY(created);
    const int64_t current = created->count, initial = created->initial;
    using Outcome = lock::Latches::Created::Outcome;
    switch (created->outcome) {
    case Outcome::conflict:
        return usage_error(fmt::format("latch {} already exists with count {} (now {}), not {}; it "
                                       "stays until its TTL ends (or start a new round: dlock "
                                       "latch create --reset {} {})",
                                       options.name, initial, current, options.count, options.name,
                                       options.count));
    case Outcome::finished:
        return usage_error(fmt::format("latch {} already reached zero (count 0 of {}): every wait "
                                       "would pass at once; start a new round with: dlock latch "
                                       "create --reset {} {}",
                                       options.name, initial, options.name, options.count));
    case Outcome::created:
        log::info("created latch {} with count {}", options.name, options.count);
        break;
    case Outcome::reset:
        log::info("latch {}: new round at count {} (the previous one was at {} of {})",
                  options.name, options.count, current, initial);
        break;
    case Outcome::refreshed:
        log::info("latch {} exists (count {} of {}); TTL refreshed", options.name, current,
                  initial);
        break;
    }
    return exit_code::ok;
}

Result<int> latch_count_down(lock::Store& store, const Target& target,
                             const LatchCountDownOptions& options) {
    TRY_ASSIGN(const auto latches, latches_of(store));
    const auto keys = lock::LatchKeys::of(target.prefix, options.name);
    auto counted = latches->count_down(keys, options.n, random_hex(16), kWakeTtl);
    TRY(counted);
    if (!counted->exists)
        return no_such(options.name);
    log::info("latch {}: count {}{}", options.name, counted->count,
              counted->woken > 0 ? fmt::format(", woke {}", counted->woken) : "");
    return exit_code::ok;
}

Result<int> latch_wait(lock::Store& store, const Target& target, const LatchWaitOptions& options) {
    TRY_ASSIGN(const auto latches, latches_of(store));
    const auto keys = lock::LatchKeys::of(target.prefix, options.name);
    const auto start = Clock::now();
    const std::string waiter = random_hex(16);
    std::optional<int64_t> last_count; // set once the latch was seen: then absent means expired
    for (;;) {
        auto round = latches->wait_round(keys, waiter, kLatchWaiterHeartbeat);
        TRY(round);
        using State = lock::Latches::Round::State;
        const int64_t count = round->count;
        if (round->state == State::missing && last_count)
            return fail(Fault::no_such_latch,
                        fmt::format("latch {} expired while waiting, at count {} (its TTL ran out "
                                    "or it was deleted)",
                                    options.name, *last_count));
        if (round->state == State::missing)
            return no_such(options.name);
        if (round->state == State::done)
            return exit_code::ok;
        last_count = count;

        Millis block = kLatchWaitRound;
        if (options.wait) {
            const auto waited = std::chrono::duration_cast<Millis>(Clock::now() - start);
            if (waited >= *options.wait) {
                (void)latches->leave(keys, waiter);
                log::warn("latch {} still at {} after waiting {}", options.name, count,
                          format_duration(*options.wait));
                return options.timeout_exit_code;
            }
            block = std::min(block, *options.wait - waited);
        }
        auto token = latches->await_token(keys, waiter, block);
        TRY(token);
        // Only the count-down that reaches zero pushes a token: the round this waiter waited
        // for is over, even if a reset started the next one since.
        if (*token)
            return exit_code::ok;
        // No token: the next round re-checks the count and refreshes the registration.
    }
}

Result<int> latch_status(lock::Store& store, const Target& target,
                         const LatchStatusOptions& options) {
    TRY_ASSIGN(const auto latches, latches_of(store));
    const auto keys = lock::LatchKeys::of(target.prefix, options.name);
    auto latch = latches->status(keys);
    TRY(latch);
    const bool exists = latch->has_value();
    const lock::LatchStatus state = latch->value_or(lock::LatchStatus{});
    const int64_t count = state.count, initial = state.initial, ttl_ms = state.ttl_left.count(),
                  waiters = state.waiters;
    if (options.json) {
        // Names are restricted to [A-Za-z0-9._:/@+=-]: nothing to escape.
        out::print("{{\"name\":\"{}\",\"exists\":{},\"count\":{},\"initial\":{},\"ttl_ms\":{},"
                   "\"waiters\":{}}}\n",
                   options.name, exists, count, initial, ttl_ms, waiters);
        if (!exists)
            return no_such(options.name);
        return exit_code::ok;
    }
    if (!exists)
        return no_such(options.name);
    out::print("name     {}\ncount    {}\ninitial  {}\nttl      {}\nwaiters  {}\n", options.name,
               count, initial, ttl_ms >= 0 ? format_duration(Millis(ttl_ms)) : "none", waiters);
    return exit_code::ok;
}

} // namespace dlock::app
