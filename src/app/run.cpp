#include "app/run.hpp"

#include "app/run_history.hpp"
#include "app/self_info.hpp"
#include "lock/acquire.hpp"
#include "lock/describe.hpp"
#include "lock/lease_clock.hpp"
#include "lock/ownership.hpp"
#include "lock/watchdog.hpp"
#include "process/exit_status.hpp"
#include "process/supervisor.hpp"
#include "redis/backends.hpp"
#include "redis/lock_backend.hpp"
#include "util/log.hpp"
#include "util/random.hpp"

#include <cstdlib>

namespace dlock::app {
namespace {

int64_t wall_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int report_refusal(const RunOptions& options, const lock::Refused& refused) {
    const auto& last = refused.last;
    std::string why;
    if (last.permit_limit > 0)
        why = lock::describe_permits(last, wall_now_ms());
    else if (last.holder && last.held_until_ms > 0)
        why = fmt::format("held by {}, finished but held until {} by --min-hold",
                          lock::describe_holder(*last.holder, wall_now_ms()),
                          lock::local_time(last.held_until_ms, wall_now_ms()));
    else if (last.holder && last.shared_holders > 0)
        why = fmt::format("held shared by {} holder{}, the oldest {}", last.shared_holders,
                          last.shared_holders == 1 ? "" : "s",
                          lock::describe_holder(*last.holder, wall_now_ms()));
    else if (last.holder)
        why = fmt::format("held by {}", lock::describe_holder(*last.holder, wall_now_ms()));
    else
        why = fmt::format("free, but {} waiter{} queued first", last.waiters,
                          last.waiters == 1 ? " is" : "s are");
    if (refused.timed_out)
        log::warn("timed out after {} waiting for {}, {}; not running {}",
                  format_duration(*options.wait), options.name, why, options.command_line);
    else
        log::warn("{} is {}; not running {}", options.name, why, options.command_line);
    return options.conflict_exit_code;
}

void export_lease(const RunOptions& options, const lock::InheritedHolds& inherited,
                  const std::string& owner, const std::string& hold, const lock::Acquired& a) {
    // A permit is not re-entered (a nested `sem run` takes another one): not in DLOCK_HELD.
    if (options.permits > 0)
        setenv("DLOCK_PERMIT", hold.c_str(), 1);
    else {
        setenv("DLOCK_HELD", inherited.with(options.name, owner).c_str(), 1);
        unsetenv("DLOCK_PERMIT");
    }
    setenv("DLOCK_NAME", options.name.c_str(), 1);
    setenv("DLOCK_OWNER", owner.c_str(), 1);
    setenv("DLOCK_FENCING_TOKEN", std::to_string(a.fence).c_str(), 1);
    setenv("DLOCK_TTL_MS", std::to_string(options.ttl.count()).c_str(), 1);
}

// Locks keep a history (`dlock history`); semaphores do not.
redis::LockBackend* history_of(lock::Backend& backend) {
    return dynamic_cast<redis::LockBackend*>(&backend);
}

// Releases our hold, telling the history the command's exit status. Retries briefly through
// connection errors; if that fails the lease simply expires after its TTL.
void release(lock::Backend& backend, const lock::Keys& keys, const RunOptions& options,
             const lock::HolderInfo& self, const std::string& owner, const std::string& hold,
             const lock::Acquired& acquired, bool lease_lost, int exit_status) {
    const lock::ReleaseRequest request{owner,           hold,        kWaiterHeartbeat,
                                       acquired.shared, exit_status, options.min_hold};
    Result<std::optional<int64_t>> released = fail(exit_code::internal, "not tried");
    for (int attempt = 0; attempt < 3; ++attempt) {
        released = backend.release(keys, request);
        if (released || !released.error().transient)
            break;
    }
    if (released && !*released && history_of(backend))
        record_lost_lease(
            *history_of(backend), keys, self, acquired.shared, acquired.fence,
            std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - acquired.sent_at),
            exit_status);
    if (!released)
        log::warn("could not release {}: {}; it expires by itself within {}", options.name,
                  released.error().message, format_duration(options.ttl));
    else if (!*released && !lease_lost)
        log::warn("the lease on {} had already expired when the command finished", options.name);
    else if (*released)
        log::info("released {} ({} hold{} left)", options.name, **released,
                  **released == 1 ? "" : "s");
}

} // namespace

int run(const Connection& connection, const RunOptions& options) {
    const lock::Keys keys = lock::Keys::of(connection.prefix, options.name);
    const auto inherited = lock::InheritedHolds::from_environment();
    const auto reentered = options.permits > 0 ? std::nullopt : inherited.owner_of(options.name);
    const std::string owner = reentered ? *reentered : random_hex(16);
    const std::string hold = random_hex(8);

    const auto store = redis::backend_for(connection.redis, options.permits);
    lock::Backend& backend = *store;
    const lock::HolderInfo self = self_info(options.command_line);
    lock::AcquireSpec spec{
        keys, {owner, hold, options.ttl, "", kWaiterHeartbeat, self, options.shared}, options.wait};
    auto result = lock::acquire(backend, spec);
    if (!result) {
        if (result.error().exit_code == exit_code::usage)
            log::error("cannot take {}: {}",
                       options.permits > 0 ? "a permit of " + options.name
                                           : options.name + " exclusively",
                       result.error().message);
        else
            log::error("{}", result.error().message);
        return result.error().exit_code;
    }
    if (auto* refused = std::get_if<lock::Refused>(&*result)) {
        if (refused->timed_out && history_of(backend))
            record_timed_out_wait(*history_of(backend), keys, self, options.shared, refused->last,
                                  *options.wait);
        return report_refusal(options, *refused);
    }
    const auto acquired = std::get<lock::Acquired>(*result);
    if (options.permits > 0)
        log::info("acquired a permit of {} (limit {}, token {})", options.name, options.permits,
                  acquired.fence);
    else
        log::info("acquired {}{} (token {}, {} hold{})", options.name,
                  acquired.shared ? " shared" : "", acquired.fence, acquired.holds,
                  acquired.holds == 1 ? "" : "s");

    export_lease(options, inherited, owner, hold, acquired);
    auto supervisor = process::Supervisor::create();
    if (!supervisor) {
        log::error("{}", supervisor.error().message);
        release(backend, keys, options, self, owner, hold, acquired, false,
                supervisor.error().exit_code);
        return supervisor.error().exit_code;
    }
    auto child = supervisor->spawn(options.argv);
    if (!child) {
        log::error("{}", child.error().message);
        release(backend, keys, options, self, owner, hold, acquired, false,
                child.error().exit_code);
        return child.error().exit_code;
    }

    lock::LeaseClock clock(acquired.sent_at, options.ttl, options.kill_after);
    lock::Watchdog watchdog(
        redis::backend_factory_for(connection.redis, options.permits), keys, owner, options.ttl,
        clock, [&] { supervisor->notify(); },
        acquired.shared ? std::optional<std::string>(hold) : std::nullopt);
    process::Supervisor::StopPolicy policy;
    policy.stop_at = [&] { return clock.stop_at(); };
    policy.signal = options.lost_signal;
    policy.grace = options.kill_after;
    policy.start_at = acquired.sent_at + options.ttl / 3 - Millis(1);
    policy.start = [&] { watchdog.start(); };
    auto outcome = supervisor->wait(policy);
    watchdog.stop(); // no renewal may follow the release

    if (outcome.stopped && clock.confirmed_lost())
        log::error("lost the lease on {}: it was released or taken over; the command was "
                   "stopped",
                   options.name);
    else if (outcome.stopped)
        log::error("could not renew the lease on {} in time; the command was stopped before "
                   "the lease could expire",
                   options.name);
    const int status = outcome.stopped ? exit_code::lease_lost
                                       : process::exit_code_from_wait_status(outcome.wait_status);
    release(backend, keys, options, self, owner, hold, acquired, outcome.stopped, status);
    return status;
}

} // namespace dlock::app
