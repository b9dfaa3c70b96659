#include "app/run.hpp"

#include "app/fd_budget.hpp"
#include "app/run_environment.hpp"
#include "app/run_history.hpp"
#include "app/run_report.hpp"
#include "app/self_info.hpp"
#include "lock/acquire_all.hpp"
#include "process/exit_status.hpp"
#include "process/supervisor.hpp"
#include "redis/backends.hpp"
#include "redis/lock_backend.hpp"
#include "util/log.hpp"
#include "util/signal_latch.hpp"

#include <optional>

namespace dlock::app {
namespace {

// Locks keep a history (`dlock history`); semaphores do not.
redis::LockBackend* history_of(lock::Backend& backend) {
    return dynamic_cast<redis::LockBackend*>(&backend);
}

// Releases every lease, telling the scripts (and so the history) how the command ended; a
// lease found no longer ours is recorded as lost.
void release_after_run(lock::Backend& backend, lock::LeaseSet& leases, const RunOptions& options,
                       const lock::HolderInfo& self, int exit_status, bool after_loss) {
    lock::LeaseSet::Ending ending;
    ending.after_loss = after_loss;
    ending.exit_status = exit_status;
    ending.min_hold = options.min_hold;
    if (auto* history = history_of(backend))
        ending.on_gone = [&, history](const lock::HeldLease& lease) {
            record_lost_lease(*history, lease.keys(), self, lease.shared(), lease.fence(),
                              lease.held_for(), exit_status);
        };
    leases.release_all(backend, ending);
}

// Runs the command while every lease is held; releases them all afterwards.
int supervise(const RunOptions& options, const lock::HolderInfo& self, lock::Backend& backend,
              lock::LeaseSet& leases) {
    auto supervisor = process::Supervisor::create();
    if (!supervisor) {
        log::error("{}", supervisor.error().message);
        release_after_run(backend, leases, options, self, supervisor.error().exit_code, false);
        return supervisor.error().exit_code;
    }
    auto child = supervisor->spawn(options.argv);
    if (!child) {
        log::error("{}", child.error().message);
        release_after_run(backend, leases, options, self, child.error().exit_code, false);
        return child.error().exit_code;
    }

    leases.on_change([&] { supervisor->notify(); });
    process::Supervisor::StopPolicy policy;
    policy.stop_at = [&] { return leases.stop_at(); };
    policy.signal = options.lost_signal;
    policy.grace = options.kill_after;
    // Renewals start when the first is due, so a short command never starts a thread.
    policy.start_at = leases.renewals_due() - Millis(1);
    policy.start = [&] { leases.start_renewals(); };
    auto outcome = supervisor->wait(policy);
    leases.stop_renewals(); // no renewal may follow the release
    leases.on_change(nullptr);

    if (outcome.stopped) {
        const lock::HeldLease* lost = leases.lost(); // the clocks no longer change
        report_lease_lost(lost ? *lost : leases[0]);
    }
    const int status = outcome.stopped ? exit_code::lease_lost
                                       : process::exit_code_from_wait_status(outcome.wait_status);
    release_after_run(backend, leases, options, self, status, outcome.stopped);
    return status;
}

} // namespace

int run(const Connection& connection, const RunOptions& options) {
    if (auto fds = check_fd_budget(); !fds) { // before anything is written to Redis
        log::error("{}", fds.error().message);
        return fds.error().exit_code;
    }
    // A permit is never re-entered: a nested `sem run` takes another one.
    const auto owners = RunOwners::resolve(options.names, options.permits == 0);
    const lock::HolderInfo self = self_info(options.command_line);
    const auto store = redis::backend_for(connection.redis, options.permits);
    lock::Backend& backend = *store;
    lock::LeaseSet leases(redis::backend_factory_for(connection.redis, options.permits),
                          options.ttl, options.kill_after, kWaiterHeartbeat);
    // A signal while a multi-name run waits for a later name must not leave the earlier ones
    // held until their TTL runs out: catch it, give them back, then die of it. (One name: the
    // default action is right, and costs no system calls.)
    std::optional<SignalLatch> latch;
    if (options.names.size() > 1)
        latch.emplace(std::initializer_list<int>{SIGINT, SIGTERM, SIGHUP, SIGQUIT});
    auto taken = lock::acquire_all(
        backend, lease_requests(connection, options, owners, self), options.wait, leases,
        latch ? std::function<bool()>([&] { return latch->caught() != 0; }) : nullptr);
    if (latch && latch->caught()) { // acquire_all returned Interrupted, or all were just taken
        leases.release_all(backend);
        return latch->reraise();
    }
    latch.reset();
    if (!taken) {
        log::error("{}", taken.error().message);
        return taken.error().exit_code;
    }
    if (auto* blocked = std::get_if<lock::Blocked>(&*taken)) {
        if (blocked->refused.timed_out && options.wait && history_of(backend))
            record_timed_out_wait(*history_of(backend),
                                  lock::Keys::of(connection.prefix, blocked->name), self,
                                  options.shared, blocked->refused.last, *options.wait);
        return report_refusal(options, *blocked);
    }
    if (auto* lost = std::get_if<lock::LostMeanwhile>(&*taken))
        return report_lost_meanwhile(options, *lost);

    export_leases(options, owners, leases);
    return supervise(options, self, backend, leases);
}

} // namespace dlock::app
