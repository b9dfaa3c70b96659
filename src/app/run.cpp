#include "app/run.hpp"

#include "app/forget.hpp"
#include "app/once_per.hpp"
#include "app/run_environment.hpp"
#include "app/run_history.hpp"
#include "app/run_report.hpp"
#include "app/stop_policy.hpp"
#include "app/take_leases.hpp"
#include "lock/acquire_all.hpp"
#include "lock/self_info.hpp"
#include "process/exit_status.hpp"
#include "process/fd_budget.hpp"
#include "process/supervisor.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"
#include "util/while_waiting.hpp"

#include <optional>
#include <sys/wait.h>

namespace dlock::app {
namespace {

// What the release found out about the leases: the first one no longer ours, the first one
// that could not be released after its guarantee had run out (both by name, "" for none).
struct Aftermath {
    std::string gone;
    bool paused = false; // `gone` had outlived its guarantee: dlock was not running to renew it
    std::string unconfirmed;
    // The first release that Redis answered with an error or an unexpected reply: whether the
    // lease was still ours is unknown.
    std::optional<Error> broken;
};

// Releases every lease, telling the scripts (and so the history and the run counters) how the
// command ended: `exit_status` is what dlock returns for it, `outcome` how it is counted. A lease
// found no longer ours is recorded as lost. When the command ran to its end, also says whether
// it may have run without the lock: a lease was found gone (taken away by `release --force`, or
// expired while dlock was paused so that nothing renewed it), or could not be released after
// its guarantee had run out.
Aftermath release_after_run(lock::Backend& backend, lock::LeaseSet& leases,
                            const RunOptions& options, const lock::HolderInfo& self,
                            int exit_status, lock::Outcome outcome,
                            const process::Supervisor::Outcome* ran) {
    Aftermath after;
    // A lease must outlive the moment the command was seen to end.
    auto outlived = [&](const lock::HeldLease& lease) {
        return ran && lease.clock().guaranteed_until() < ran->ended_at;
    };
    lock::LeaseSet::Ending ending;
    ending.after_loss = true; // any loss is reported here, or was before the release
    ending.exit_status = exit_status;
    ending.outcome = outcome;
    ending.min_hold = options.min_hold;
    lock::History* history = backend.history(); // locks keep one; semaphores do not
    ending.on_gone = [&](const lock::HeldLease& lease) {
        if (history)
            record_lost_lease(*history, lease.keys(), self, lease.shared(), lease.fence(),
                              lease.held_for(), exit_code::lease_lost);
        if (after.gone.empty()) {
            after.gone = lease.name();
            after.paused = outlived(lease);
        }
    };
    ending.on_unreleased = [&](const lock::HeldLease& lease, const Error& error) {
        if (!error.transient && !after.broken)
            after.broken = release_failed(lease.name(), error);
        else if (after.unconfirmed.empty() && outlived(lease))
            after.unconfirmed = lease.name();
    };
    leases.release_all(backend, ending);
    if (ran && !ran->stopped) {
        if (!after.gone.empty())
            report_lost_while_running(after.gone, after.paused);
        else if (!after.unconfirmed.empty())
            report_unconfirmed_release(after.unconfirmed);
    }
    return after;
}

// The command ran past --max-run: says so, and records it in the history of every name.
void time_up(lock::Backend& backend, const lock::LeaseSet& leases, const RunOptions& options,
             const lock::HolderInfo& self, bool killed) {
    report_time_up(options, killed);
    if (lock::History* history = backend.history())
        for (size_t i = 0; i < leases.size(); ++i)
            record_time_up(*history, leases[i].keys(), self, leases[i].shared(), leases[i].fence(),
                           *options.max_run);
}

// Runs the command while every lease is held; releases them all afterwards. An Error: the
// command could not be started (and the leases were released).
// `slot`: the --once-per slot claimed, marked done when the command succeeds.
Result<int> supervise(const RunOptions& options, const lock::HolderInfo& self,
                      lock::Backend& backend, lock::LeaseSet& leases,
                      Result<process::Guardian> guardian, const ClaimedSlot* slot,
                      lock::Slots* slots) {
    auto supervisor = process::Supervisor::create();
    auto child = supervisor.and_then(
        [&](process::Supervisor& s) { return s.spawn(options.argv, std::move(guardian)); });
    if (!child) {
        release_after_run(backend, leases, options, self, exit_code::of(child.error().fault),
                          lock::Outcome::failed, nullptr);
        return tl::unexpected(child.error());
    }

    leases.on_change([&] { supervisor->notify(); });
    const auto policy = stop_policy(options, leases);
    const auto outcome = supervisor->wait(policy);
    leases.stop_renewals(); // no renewal may follow the release
    leases.on_change(nullptr);

    if (outcome.stopped) {
        const lock::HeldLease* lost = leases.lost(outcome.stopped_at); // clocks are final now
        const lock::HeldLease& lease = lost ? *lost : leases[0];
        report_lease_lost(lease, lease.clock().guaranteed_until() < outcome.stopped_at);
    }
    if (outcome.timed_out && !outcome.stopped)
        time_up(backend, leases, options, self, outcome.killed);
    const int status = outcome.stopped ? exit_code::lease_lost
                       : outcome.timed_out
                           ? exit_code::timed_out
                           : process::exit_code_from_wait_status(outcome.wait_status);
    if (slot && !options.once_per->strict && status == exit_code::ok)
        mark_slot_done(*slots, leases, options, self, *slot);
    const auto counted = counted_outcome(outcome.stopped, outcome.timed_out, status);
    const Aftermath after =
        release_after_run(backend, leases, options, self, status, counted, &outcome);
    if (outcome.stopped || !after.gone.empty() || !after.unconfirmed.empty())
        return exit_code::lease_lost;
    if (after.broken)
        return tl::unexpected(*after.broken);
    if (outcome.timed_out)
        return exit_code::timed_out;
    // Ctrl-C: a shell running dlock in a loop stops it only if dlock dies of the signal (and,
    // for a script without job control, only if the shell got the signal too). Without dlock,
    // the key would have reached the whole foreground group, which we took the terminal from.
    if (WIFSIGNALED(outcome.wait_status) &&
        (WTERMSIG(outcome.wait_status) == SIGINT || WTERMSIG(outcome.wait_status) == SIGQUIT))
        return die_of_signal(WTERMSIG(outcome.wait_status), outcome.had_terminal);
    return status;
}

Result<int> run_leased(lock::Store& store, const Target& target, const RunOptions& options) {
    TRY(check_offered(store, options));
    // Before anything is written to the store: a connection per server, twice.
    TRY(check_fd_budget(kRunFds + 2 * (store.servers() - 1)));
    // A permit is never re-entered: a nested `sem run` takes another one.
    const auto owners = RunOwners::resolve(options.names, options.permits == 0);
    const lock::HolderInfo self = self_info(options.command_line);
    auto [lease_backend, factory] = options.compat
                                        ? store.compat_leases(*options.compat)
                                        : store.leases(options.permits, self, options.ttl);
    lock::Backend& backend = *lease_backend;
    lock::LeaseSet leases(std::move(factory), options.ttl, options.kill_after,
                          lock::kWaiterHeartbeat);
    // Starting the guardian costs about as much as the acquire's round trip: a run that does
    // not wait starts it while Redis runs the script. (One that waits starts it with the
    // command: a signal that ends dlock while it waits would leave the guardian to init.)
    std::optional<Result<process::Guardian>> guardian;
    std::optional<WhileWaiting> early_guardian;
    if (options.wait == Millis(0))
        early_guardian.emplace([&] { guardian.emplace(process::Guardian::start()); });
    // Reaped before dying of a signal: an init that does not reap would keep it.
    std::unique_ptr<lock::Slots> slots = options.once_per ? store.slots() : nullptr;
    TRY_ASSIGN(const auto refused, take_leases(
                                       backend, leases, target, options, owners, self,
                                       [&](int) { guardian.reset(); }, false, slots.get()));
    if (refused)
        return *refused;

    TRY_ASSIGN(const SlotDecision decision,
               claim_slot(slots.get(), backend, leases, options, self));
    if (const int* skipped = std::get_if<int>(&decision))
        return *skipped;
    export_leases(options, owners, leases);
    if (early_guardian)
        early_guardian->run_now(); // if no wait for a reply came to run it
    if (!guardian)
        guardian.emplace(process::Guardian::start());
    return supervise(options, self, backend, leases, std::move(*guardian),
                     std::get_if<ClaimedSlot>(&decision), slots.get());
}

} // namespace

Result<int> run(lock::Store& store, const Target& target, const RunOptions& options) {
    auto status = run_leased(store, target, options);
    // Also after a refusal or a timed-out wait: their records are forgotten once the name is free
    // (a Redis found unreachable is not asked again).
    if (options.ephemeral && (status || status.error().fault != Fault::unavailable))
        forget_if_free(store, target.prefix, options.names);
    return status;
}

} // namespace dlock::app
