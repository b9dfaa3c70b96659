#include "app/latch.hpp"

#include "lock/keys.hpp"
#include "redis/connection.hpp"
#include "redis/embedded_scripts.hpp"
#include "redis/script_runner.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/random.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <thread>
#include <vector>

namespace dlock::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kAttempts = 3;       // tries per script on transient errors
constexpr Millis kRetryPause{200}; // between them
constexpr Millis kWakeTtl{2 * kLatchWaiterHeartbeat.count()};

std::string ms(Millis d) {
    return std::to_string(d.count());
}

// One connection, reopened after a transient error. Scripts are retried with the same
// arguments, which is safe: create is idempotent, count-down carries a request id, wait and
// leave only (re)register or unregister this waiter.
class Session {
  public:
    explicit Session(redis::ConnectOptions options) : options_(std::move(options)) {}

    Result<redis::Reply> script(std::string_view name, const std::vector<std::string_view>& keys,
                                const std::vector<std::string_view>& args) {
        Error last;
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            if (attempt > 0)
                std::this_thread::sleep_for(kRetryPause);
            if (auto ok = ensure_connected(); !ok) {
                last = ok.error();
                if (!connected_once_)
                    break; // unreachable from the start: report it at once
                continue;
            }
            auto reply = redis::run_script(*conn_, redis::script(name), keys, args);
            if (reply)
                return reply;
            last = reply.error();
            if (!last.transient)
                break;
            log::debug("{}: {}; retrying", name, last.message);
        }
        return tl::unexpected(last);
    }

    // BLPOP on `key` for at most `block`. True when a token was popped; a transient error
    // counts as no token (the next round reconnects and re-checks).
    Result<bool> await_token(const std::string& key, Millis block) {
        if (auto ok = ensure_connected(); !ok)
            return ok.error().transient || connected_once_ ? Result<bool>(false)
                                                           : tl::unexpected(ok.error());
        auto reply = conn_->blpop(key, block);
        if (!reply) {
            if (reply.error().transient) {
                log::debug("BLPOP: {}", reply.error().message);
                std::this_thread::sleep_for(kRetryPause);
                return false;
            }
            return tl::unexpected(reply.error());
        }
        return *reply;
    }

  private:
    Result<void> ensure_connected() {
        if (conn_ && !conn_->broken())
            return {};
        conn_.reset();
        auto opened = redis::Connection::open(options_);
        if (!opened)
            return tl::unexpected(opened.error());
        conn_.emplace(std::move(*opened));
        connected_once_ = true;
        return {};
    }

    redis::ConnectOptions options_;
    std::optional<redis::Connection> conn_;
    bool connected_once_ = false;
};

int report(const Error& error) {
    log::error("{}", error.message);
    return error.exit_code;
}

int unexpected_reply(std::string_view script) {
    log::error("unexpected reply from {}", script);
    return exit_code::internal;
}

int no_such(std::string_view name) {
    log::error("no such latch {}", name);
    return no_such_latch;
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
        return usage_error(fmt::format("{} must be an integer from 1 to {}, not '{}'", what,
                                       kMaxLatchCount, text));
    return value;
}

int latch_create(const Connection& connection, const LatchCreateOptions& options) {
    const auto keys = lock::LatchKeys::of(connection.prefix, options.name);
    Session session(connection.redis);
    const std::string count = std::to_string(options.count), ttl = ms(options.ttl);
    auto reply = session.script("latch_create", {keys.latch, keys.ids, keys.waiters}, {count, ttl});
    if (!reply)
        return report(reply.error());
    if (!reply->is_array() || reply->size() != 3)
        return unexpected_reply("latch_create");
    const int64_t status = (*reply)[0].as_int();
    const int64_t current = (*reply)[1].as_int(), initial = (*reply)[2].as_int();
    if (status == -1) {
        log::error("latch {} already exists with count {} (now {}), not {}; it stays until its "
                   "TTL ends",
                   options.name, initial, current, options.count);
        return exit_code::usage;
    }
    if (status == 1)
        log::info("created latch {} with count {}", options.name, options.count);
    else
        log::info("latch {} exists (count {} of {}); TTL refreshed", options.name, current,
                  initial);
    return exit_code::ok;
}

int latch_count_down(const Connection& connection, const LatchCountDownOptions& options) {
    const auto keys = lock::LatchKeys::of(connection.prefix, options.name);
    Session session(connection.redis);
    const std::string n = std::to_string(options.n), request = random_hex(16),
                      wake_ttl = ms(kWakeTtl);
    auto reply = session.script("latch_count_down", {keys.latch, keys.ids, keys.waiters, keys.wake},
                                {n, request, wake_ttl});
    if (!reply)
        return report(reply.error());
    if (!reply->is_array() || reply->size() != 3)
        return unexpected_reply("latch_count_down");
    const int64_t status = (*reply)[0].as_int();
    if (status == 0)
        return no_such(options.name);
    log::info("latch {}: count {}{}", options.name, (*reply)[1].as_int(),
              (*reply)[2].as_int() > 0 ? fmt::format(", woke {}", (*reply)[2].as_int()) : "");
    return exit_code::ok;
}

int latch_wait(const Connection& connection, const LatchWaitOptions& options) {
    const auto keys = lock::LatchKeys::of(connection.prefix, options.name);
    const auto start = Clock::now();
    Session session(connection.redis);
    const std::string waiter = random_hex(16), heartbeat = ms(kLatchWaiterHeartbeat);
    const std::string wake = keys.wake + waiter;
    std::optional<int64_t> last_count; // set once the latch was seen: then absent means expired
    for (;;) {
        auto reply = session.script("latch_wait", {keys.latch, keys.waiters, keys.wake},
                                    {waiter, heartbeat});
        if (!reply)
            return report(reply.error());
        if (!reply->is_array() || reply->size() != 2)
            return unexpected_reply("latch_wait");
        const int64_t status = (*reply)[0].as_int(), count = (*reply)[1].as_int();
        if (status == 0 && last_count) {
            log::error("latch {} expired while waiting, at count {} (its TTL ran out or it was "
                       "deleted)",
                       options.name, *last_count);
            return no_such_latch;
        }
        if (status == 0)
            return no_such(options.name);
        if (status == 1)
            return exit_code::ok;
        last_count = count;

        Millis block = kLatchWaitRound;
        if (options.wait) {
            const auto waited = std::chrono::duration_cast<Millis>(Clock::now() - start);
            if (waited >= *options.wait) {
                (void)session.script("latch_leave", {keys.waiters, keys.wake}, {waiter});
                log::warn("latch {} still at {} after waiting {}", options.name, count,
                          format_duration(*options.wait));
                return options.timeout_exit_code;
            }
            block = std::min(block, *options.wait - waited);
        }
        auto token = session.await_token(wake, block);
        if (!token)
            return report(token.error());
        // Token or not, the next round re-checks the count and refreshes the registration.
    }
}

int latch_status(const Connection& connection, const LatchStatusOptions& options) {
    const auto keys = lock::LatchKeys::of(connection.prefix, options.name);
    Session session(connection.redis);
    auto reply = session.script("latch_status", {keys.latch, keys.waiters}, {});
    if (!reply)
        return report(reply.error());
    if (!reply->is_array() || reply->size() != 5)
        return unexpected_reply("latch_status");
    const bool exists = (*reply)[0].as_int() == 1;
    const int64_t count = (*reply)[1].as_int(), initial = (*reply)[2].as_int(),
                  ttl_ms = (*reply)[3].as_int(), waiters = (*reply)[4].as_int();
    if (options.json) {
        // Names are restricted to [A-Za-z0-9._:/@+=-]: nothing to escape.
        out::print("{{\"name\":\"{}\",\"exists\":{},\"count\":{},\"initial\":{},\"ttl_ms\":{},"
                   "\"waiters\":{}}}\n",
                   options.name, exists, count, initial, ttl_ms, waiters);
        return exists ? exit_code::ok : no_such(options.name);
    }
    if (!exists)
        return no_such(options.name);
    out::print("name     {}\ncount    {}\ninitial  {}\nttl      {}\nwaiters  {}\n", options.name,
               count, initial, ttl_ms >= 0 ? format_duration(Millis(ttl_ms)) : "none", waiters);
    return exit_code::ok;
}

} // namespace dlock::app
