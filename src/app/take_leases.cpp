#include "app/take_leases.hpp"

#include "app/once_per.hpp"
#include "app/run_history.hpp"
#include "app/run_report.hpp"
#include "app/wait_report.hpp"
#include "lock/acquire_all.hpp"
#include "util/signal_latch.hpp"

#include <csignal>

namespace dlock::app {
namespace {

// The exit status of names not all taken (reported), or nullopt when they were.
std::optional<int> not_taken(lock::Backend& backend, const Target& target,
                             const RunOptions& options, const lock::HolderInfo& self,
                             const lock::AcquireAllResult::value_type& taken, lock::Slots* slots) {
    if (auto* blocked = std::get_if<lock::Blocked>(&taken)) {
        if (auto done = done_while_kept(slots, target.prefix, options, *blocked))
            return done;
        const auto keys = lock::Keys::of(target.prefix, blocked->name);
        const auto& paused = blocked->refused.last.paused;
        if (paused && !paused->recorded && backend.history())
            record_paused_skip(*backend.history(), keys, self, options.shared, *paused);
        else if (blocked->refused.timed_out && options.wait && backend.history())
            record_timed_out_wait(*backend.history(), keys, self, options.shared,
                                  blocked->refused.last, *options.wait);
        return report_refusal(options, *blocked);
    }
    if (auto* lost = std::get_if<lock::LostMeanwhile>(&taken))
        return report_lost_meanwhile(options, *lost);
    return std::nullopt;
}

} // namespace

Result<void> check_offered(const lock::Store& store, const RunOptions& options) {
    const lock::Capabilities offered = store.capabilities();
    if (options.permits > 0)
        TRY(lock::require(offered.semaphores, offered, "dlock sem run"));
    if (options.shared)
        TRY(lock::require(offered.shared_holds, offered, "a shared lock (-s)"));
    if (options.min_hold > Millis(0))
        TRY(lock::require(offered.min_hold, offered, "--min-hold"));
    if (options.once_per)
        TRY(lock::require(offered.once_per, offered, "--once-per"));
    if (options.compat)
        TRY(lock::require(offered.compat, offered, "--compat"));
    return {};
}

Result<std::optional<int>> take_leases(lock::Backend& backend, lock::LeaseSet& leases,
                                       const Target& target, const RunOptions& options,
                                       const RunOwners& owners, const lock::HolderInfo& self,
                                       const std::function<void(int)>& before_dying,
                                       bool catch_signals, lock::Slots* slots) {
    // A signal while a multi-name run waits for a later name must not leave the earlier ones
    // held until their TTL runs out: catch it, give them back, then die of it. (One name: the
    // default action is right, and costs no system calls.)
    // A wait shown in place at a terminal is ended cleanly on Ctrl-C too: caught likewise.
    std::optional<WaitReport> shown;
    if (options.wait != Millis(0))
        shown.emplace();
    std::optional<SignalLatch> latch;
    if (options.names.size() > 1 || (shown && (catch_signals || shown->in_place())))
        latch.emplace(std::initializer_list<int>{SIGINT, SIGTERM, SIGHUP, SIGQUIT});
    auto taken = lock::acquire_all(
        backend, lease_requests(target, options, owners, self), options.wait, leases,
        latch ? std::function<bool()>([&] { return latch->caught() != 0; }) : nullptr,
        shown ? lock::WaitHook([&](const std::string& name, const lock::AcquireOutcome& last) {
            shown->waiting(name, last);
        })
              : nullptr);
    if (shown)
        shown->ended(taken && std::holds_alternative<lock::AllHeld>(*taken));
    if (latch && latch->caught()) { // acquire_all returned Interrupted, or all were just taken
        leases.release_all(backend);
        if (before_dying)
            before_dying(latch->caught());
        return latch->reraise();
    }
    latch.reset();
    TRY(taken);
    return not_taken(backend, target, options, self, *taken, slots);
}

} // namespace dlock::app
