#pragma once

#include "lock/forced_release.hpp"
#include "lock/history.hpp"
#include "lock/keys.hpp"
#include "lock/pause.hpp"
#include "lock/runs.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::lock {

// Who holds (or asks for) a lease: shown in refusals and `dlock status`.
struct HolderInfo {
    std::string host;
    int64_t pid = 0;
    std::string user;
    std::string command;
    int64_t since_ms = 0; // Redis server time of the acquisition, ms since the epoch
    int64_t fence = 0;
};

// How long a waiter that stops heartbeating stays in the queue (see docs/internals.md, "Waiting").
inline constexpr Millis kWaiterHeartbeat{3000};
// A waiter deep in a long queue may stay silent for up to this many heartbeats (MAX_WINDOWS in
// lua/lib/waiters.lua); a longer window in a reply is not believed.
inline constexpr int kMaxHeartbeatWindows = 20;

struct AcquireRequest {
    std::string owner;   // 128-bit token shared by nested holders (re-entry)
    std::string hold_id; // unique per request, so a retried acquire is a replay
    Millis ttl{};
    std::string waiter_id; // empty: do not queue (no-wait)
    Millis heartbeat{};    // how long a silent waiter stays in the queue
    HolderInfo self;       // host, pid, user, command of this process
    bool shared = false;   // a shared (read) hold instead of an exclusive one
    // A refusal without a queue is the caller's final answer: the store records it in the
    // history as a skip and counts it (skipped_busy). False for a round of a wait the store
    // does not queue (Redlock polls): the caller records the final answer itself.
    bool final_refusal = true;
};

struct AcquireOutcome {
    bool acquired = false;
    int64_t fence = 0;   // when acquired
    int64_t holds = 0;   // when acquired: 1, or more when re-entered
    Millis lease_left{}; // when refused: the blocking lease's remaining time (may be <0)
    std::optional<HolderInfo> holder; // when refused and held (absent: free, others queued)
    int64_t waiters = 0;              // when refused: queued waiters including us
    // When acquired: granted shared (an exclusive owner asking for shared re-enters exclusively
    // instead).
    bool shared = false;
    int64_t shared_holders = 0; // when refused: current shared holds
    // When refused by a finished holder kept by --min-hold: until when (server ms); 0 otherwise.
    int64_t held_until_ms = 0;
    // When refused and queued: how long the waiter may stay silent before it counts as dead
    // (longer deep in a long queue); 0: one heartbeat, as asked.
    Millis heartbeat_window{0};
    // From a semaphore: its limit (0: not a semaphore) and the permits held (when acquired:
    // with ours); when refused, also the first few holders (`holder` is the first of them).
    int64_t permit_limit = 0;
    int64_t permits_held = 0;
    std::vector<HolderInfo> permit_holders;
    // When acquired: the store took the hold but could not make it as durable as asked (fewer
    // replicas acknowledged it than --min-replicas): the transient error that says so. The
    // caller gives the hold back (lock::give_back) and may try again.
    std::optional<Error> unreplicated;
    // When refused under --compat: the other library's format ("redisson"...); `holder` then
    // has only its owner value, as `command` (those formats record no host or pid).
    std::string compat_holder;
    // When refused because the name is paused (`dlock pause`): the pause. Such a refusal ends a
    // wait at once.
    std::optional<Pause> paused;
};

// How a waiter's wait ended: woken, or not (its timeout passed); and when a release handed it
// the lease while it queued (a grant), the lease's fencing token. A granted lease is held as if
// this waiter's acquire had taken it after its last refused one ran.
struct Wake {
    bool woken = false;
    std::optional<int64_t> granted_fence;
    // Woken only to come back within one heartbeat: the waiter is next in the queue.
    bool nudged = false;
};

// The last word on a hold: besides who releases what, what the history records and how long
// the lease must outlive the command. The referenced strings must outlive the call.
struct ReleaseRequest {
    std::string_view owner;
    std::string_view hold_id; // an exclusive lease's, a shared hold's or a semaphore permit's
    Millis heartbeat{};       // of the waiters it wakes
    bool shared = false;
    // What dlock returns for the command, for the history (ignored by a store without one).
    std::optional<int> exit_status{};
    // --min-hold: keep an exclusive lease until acquisition + this. A store that cannot keep a
    // lease after its release (a semaphore) refuses a non-zero one.
    Millis min_hold{0};
    // The lease's fencing token (0: unknown). A store that keeps a history tells by it a retry
    // of a release that ran (its reply lost: "released") from a lease that vanished meanwhile
    // ("not ours", which the caller reports as lost).
    int64_t fence = 0;
    // How the run ended, for the run counters (lock/runs.hpp): ok, failed, timed_out or lost;
    // none counts nothing (a rollback, a --once-per skip, a hold whose owner exited).
    std::optional<Outcome> outcome{};
};

// One lease to renew: the keys and owner token it was taken with. An exclusive lease is renewed
// by its owner; a shared hold, or a semaphore permit, by its hold id. The referenced strings
// must outlive the call.
struct RenewRequest {
    const Keys& keys;
    std::string_view owner;
    std::string_view hold_id;
    Millis ttl{};
    bool shared = false;
    int64_t fence = 0; // the lease's fencing token (0: unknown), to find the force that broke it
};

// What a renewal found: the lease renewed, or no longer ours; then, when the store found the
// `release --force` that broke it, who did and when.
struct Renewal {
    bool renewed = false;
    std::optional<ForcedRelease> forced;
    // As the 1 or 0 the renew scripts answer.
    explicit operator bool() const { return renewed; }
};

// Everything the lock logic needs from a store: one lease at a time on a name, its renewals,
// its release, and the waiters' queue. Implemented over one Redis server in src/redis/; a store
// over Sentinel, Cluster or a Redlock quorum implements the same five calls, with no special case
// upstream, as long as it keeps these guarantees:
// - Idempotent by id. A call may be sent again after its reply was lost, with the same hold id
//   or waiter id: the replay finds what the first one did (the hold it took, the place it
//   queued, the lease it released, then "not ours") and never takes or releases twice.
// - Bounded. Every call returns within the store's timeouts (await_wake within its `timeout`
//   plus them), however many servers it asks: a quorum bounds the whole call, not each server.
// - Errors tell what a retry can do. `transient`: the outcome is unknown or the store out of
//   reach for now (and `unreachable` when it could not be connected to at all); callers retry
//   with the same ids. Not transient: the store answered (bad input, a script error).
// - Yes and no are sure. A quorum store says acquired/renewed only with a majority within the
//   lease's validity, and "not ours" only when a majority says so; in between is transient.
// - One name, one place. All keys of a name share a hash tag (Keys::of), so a routed store
//   sends each call to the node of keys.lock; renew() may span names: it splits the batch and
//   answers in request order. Fencing tokens grow per name, whoever holds it.
class Backend {
  public:
    virtual ~Backend() = default;

    // Takes the lease, re-enters it (same owner), or refuses and, with a waiter id, queues it.
    virtual Result<AcquireOutcome> acquire(const Keys& keys, const AcquireRequest& request) = 0;
    // Renews every lease of `requests` in one round trip (pipelined): one result per request, in
    // order. Renewed, or the lease is no longer ours (and who forced it off, when known); an
    // error: not known (a connection error fails every request of the call).
    virtual std::vector<Result<Renewal>> renew(std::span<const RenewRequest> requests) = 0;
    Result<Renewal> renew(const RenewRequest& request) {
        return std::move(renew(std::span<const RenewRequest>(&request, 1)).front());
    }
    // Drops the hold `r.hold_id`: holds left (0: released, the waiters that can proceed woken),
    // or nullopt when it was not ours (any more).
    virtual Result<std::optional<int64_t>> release(const Keys& keys, const ReleaseRequest& r) = 0;
    // Blocks until this waiter is woken (true) or `timeout` passes (false).
    virtual Result<bool> await_wake(const Keys& keys, std::string_view waiter_id,
                                    Millis timeout) = 0;
    // As await_wake; a store that hands a released lease to the head of the queue says so when
    // that is what woke the waiter. A grant popped here is the waiter's: its reply lost, the
    // waiter's next acquire finds it (a replay of its own request).
    virtual Result<Wake> await_grant(const Keys& keys, std::string_view waiter_id, Millis timeout) {
        auto woken = await_wake(keys, waiter_id, timeout);
        TRY(woken);
        return Wake{*woken, std::nullopt};
    }
    // The waiter gives up its place; whoever can now proceed is woken.
    virtual Result<void> leave_queue(const Keys& keys, std::string_view waiter_id,
                                     Millis heartbeat) = 0;

    // The store's history of the names (`dlock history`), nullptr when it keeps none (a
    // semaphore). Owned by the backend.
    virtual History* history() { return nullptr; }
};

// Opens a fresh backend (own connection), e.g. for the watchdog thread.
using BackendFactory = std::function<Result<std::unique_ptr<Backend>>()>;

} // namespace dlock::lock
