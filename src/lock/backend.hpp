#pragma once

#include "lock/keys.hpp"
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

struct AcquireRequest {
    std::string owner;   // 128-bit token shared by nested holders (re-entry)
    std::string hold_id; // unique per request, so a retried acquire is a replay
    Millis ttl{};
    std::string waiter_id; // empty: do not queue (no-wait)
    Millis heartbeat{};    // how long a silent waiter stays in the queue
    HolderInfo self;       // host, pid, user, command of this process
    bool shared = false;   // a shared (read) hold instead of an exclusive one
};

struct AcquireOutcome {
    bool acquired = false;
    int64_t fence = 0;   // when acquired
    int64_t holds = 0;   // when acquired: 1, or more when re-entered
    Millis lease_left{}; // when refused: the blocking lease's remaining time (may be <0)
    std::optional<HolderInfo> holder; // when refused and held (absent: free, others queued)
    int64_t waiters = 0;              // when refused: queued waiters including us
    bool shared = false;              // when acquired: granted shared (an exclusive owner asking
                                      // for shared re-enters exclusively instead)
    int64_t shared_holders = 0;       // when refused: current shared holds
    int64_t held_until_ms = 0;        // when refused by a finished holder kept by --min-hold: until
                                      // when (server ms); 0 otherwise
    // From a semaphore: its limit (0: not a semaphore) and the permits held (when acquired:
    // with ours); when refused, also the first few holders (`holder` is the first of them).
    int64_t permit_limit = 0;
    int64_t permits_held = 0;
    std::vector<HolderInfo> permit_holders;
};

// The last word on a hold: besides who releases what, what the history records and how long
// the lease must outlive the command.
struct ReleaseRequest {
    std::string_view owner;
    std::string_view hold_id;
    Millis heartbeat{};
    bool shared = false;
    std::optional<int> exit_status; // what dlock returns for the command, for the history
    Millis min_hold{0};             // --min-hold: keep an exclusive lease until acquisition + this
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
};

// Everything the lock logic needs from a store. Implemented over one Redis connection in
// src/redis/; a Sentinel, Cluster or Redlock-quorum store can implement the same interface.
// Each call is bounded by the store's command timeout, and `await_wake` by its timeout too.
class Backend {
  public:
    virtual ~Backend() = default;
    virtual Result<AcquireOutcome> acquire(const Keys& keys, const AcquireRequest& request) = 0;
    // Renews every lease of `requests` in one round trip (pipelined): one result per request, in
    // order. true: renewed; false: the lease is no longer ours; an error: not known (a
    // connection error fails every request of the call).
    virtual std::vector<Result<bool>> renew(std::span<const RenewRequest> requests) = 0;
    Result<bool> renew(const RenewRequest& request) {
        return std::move(renew(std::span<const RenewRequest>(&request, 1)).front());
    }
    // Holds left (0: released, waiters woken), or nullopt when the lease was not ours.
    virtual Result<std::optional<int64_t>> release(const Keys& keys, std::string_view owner,
                                                   std::string_view hold_id, Millis heartbeat) = 0;
    virtual Result<std::optional<int64_t>> release_shared(const Keys& keys, std::string_view owner,
                                                          std::string_view hold_id,
                                                          Millis heartbeat) = 0;
    // As above, with the exit status (a store without a history ignores it) and --min-hold
    // (refused by a store that cannot keep a lease after release).
    virtual Result<std::optional<int64_t>> release(const Keys& keys, const ReleaseRequest& r) {
        if (r.min_hold > Millis(0))
            return fail(exit_code::internal, "--min-hold is not supported by this store");
        return r.shared ? release_shared(keys, r.owner, r.hold_id, r.heartbeat)
                        : release(keys, r.owner, r.hold_id, r.heartbeat);
    }
    // Blocks until this waiter is woken (true) or `timeout` passes (false).
    virtual Result<bool> await_wake(const Keys& keys, std::string_view waiter_id,
                                    Millis timeout) = 0;
    virtual Result<void> leave_queue(const Keys& keys, std::string_view waiter_id,
                                     Millis heartbeat) = 0;
};

// Opens a fresh backend (own connection), e.g. for the watchdog thread.
using BackendFactory = std::function<Result<std::unique_ptr<Backend>>()>;

} // namespace dlock::lock
