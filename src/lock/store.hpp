#pragma once

#include "lock/backend.hpp"
#include "lock/compat.hpp"
#include "lock/history.hpp"
#include "lock/keys.hpp"
#include "lock/latches.hpp"
#include "lock/pause.hpp"
#include "lock/slots.hpp"
#include "lock/status.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::lock {

// What a store offers beyond exclusive leases. A use case checks the one it needs with
// require() before it touches the store, so a store that lacks it is refused up front.
struct Capabilities {
    bool shared_holds = false; // `dlock run -s`
    bool semaphores = false;   // `dlock sem run`, `sem status`, release --permit/--all-permits
    bool latches = false;      // `dlock latch`
    bool min_hold = false;     // --min-hold
    bool bench = false;        // `dlock bench` measures one deployment
    bool once_per = false;     // `run --once-per`: schedule slots (slots())
    // Why the store refuses what it lacks, after the feature's name: the store knows what it
    // is, the use case only what it asked for.
    std::string lacking;
    bool compat = false; // `run --compat FORMAT`: leases in another library's format
};

// A usage error "<what> <lacking>" when `offered` is false.
Result<void> require(bool offered, const Capabilities& capabilities, std::string_view what);

// The lease backend of a run and the factory of its watchdog's.
struct Leases {
    std::unique_ptr<Backend> backend;
    BackendFactory factory;
};

// One entry of a name's history.
struct HistoryEntry {
    std::string id;      // stream id "<ms>-<seq>"
    int64_t time_ms = 0; // server time of the event (the id's first part)
    HistoryFields fields;

    // The value of field `name`, "" when absent.
    std::string_view field(std::string_view name) const;
    // The integer value of field `name`, 0 when absent or not a number.
    int64_t number(std::string_view name) const;
    // The other party of a skip, a forced release or a lost lease (fields other_host,
    // other_pid, other_user, other_command, other_since_ms, other_fence); nullopt when none.
    std::optional<HolderInfo> other() const;
};

// The state of the names as one server of the store sees it. A store of one deployment has one
// unnamed member; a quorum store one per member, each answered or failed.
struct MemberStatus {
    std::string name;    // "member 2 (h:6380)"; "" for the only one
    std::string address; // the member's address, redacted
    Result<StatusReport> report;
};

// Under a quorum: the exclusive holder of a name that the most members agree on.
struct MajorityHolder {
    std::string name;
    size_t members = 0;                 // that agree on `holder`
    std::optional<HolderStatus> holder; // the newest report of it, with the largest token
    int64_t now_ms = 0;                 // the server time of that report
    bool held = false;                  // a majority agrees
};

struct StatusReading {
    std::vector<MemberStatus> members;
    size_t quorum = 0; // members needed for a majority; 0: one deployment, no majority view
    std::vector<MajorityHolder> majority; // with a quorum: one per name

    // The status of `name` in each member's report that answered (one deployment: at most one).
    std::vector<const NameStatus*> of(std::string_view name) const;
    // The pause of `name`, as any member that has one says (one paused member refuses a run).
    std::optional<Pause> pause_of(std::string_view name) const;
    // The server time of the reading: the first member that answered; the last failure when
    // none did.
    Result<int64_t> server_now_ms() const;
};

// One owner's hold of a lock, broken by `release --force`.
struct BrokenHold {
    LockStatus::State mode; // exclusive, shared, or min_hold: finished, kept by --min-hold
    HolderInfo holder;
};

struct BrokenLock {
    int64_t woken = 0;             // waiters woken
    std::vector<BrokenHold> holds; // empty: it was not held (nothing changed)
};

// What `release --force` broke on each server of the store (as MemberStatus names them).
struct MemberBroken {
    std::string name;
    Result<BrokenLock> broken;
};

// What `dlock forget` did to a name on one server of the store (as MemberStatus names them).
struct Forgotten {
    // What holds the name (nothing was removed), "" when it was free.
    enum class Held { free, exclusive, shared, permits } held = Held::free;
    int64_t removed = 0; // keys removed: history, run counters, fencing counter, slot
};

struct MemberForgotten {
    std::string name;
    Result<Forgotten> forgotten;
};

// One permit of a semaphore, broken.
struct BrokenPermit {
    std::string permit; // its id
    HolderInfo holder;
};

struct BrokenPermits {
    int64_t woken = 0;                 // waiters woken: as many as could take a freed permit
    std::vector<BrokenPermit> permits; // empty: no such live permit (nothing changed)
};

// Everything a use case needs from where the locks live: leases (through Backend), and the
// inspection and repair calls of status, history, release --force, semaphores and latches.
// Implementations: one deployment (redis/stores/single_store.hpp: one server, Sentinel or
// Cluster, routed by ScriptSession) and a Redlock quorum (redis/redlock/redlock_store.hpp).
// A call the store's capabilities() do not offer is refused by the caller before it is made.
// A quorum store answers the inspection calls with every member's view, and fails only when no
// majority answered.
class Store {
  public:
    virtual ~Store() = default;

    virtual Capabilities capabilities() const = 0;
    // How many servers a lease talks to (for the descriptor budget of a run).
    virtual int servers() const = 0;

    // What `dlock run` holds: the lock, or with permits > 0 one of that many permits of the
    // semaphore. `self` is the holder written where a renewal repairs a quorum member.
    virtual Leases leases(int64_t permits, const HolderInfo& self, Millis ttl) = 0;
    // The lease backend of a `--compat FORMAT` run and its watchdog's factory: the lease lives in
    // the other library's format at keys.lock (the other side's key). With capabilities().compat
    // only; by default none (an empty Leases).
    virtual Leases compat_leases(CompatFormat) { return {}; }
    // `status --compat FORMAT NAME`: the other side's key `key` as it is. With
    // capabilities().compat only.
    virtual Result<CompatReading> compat_status(CompatFormat format, const std::string& key);
    // `release --force --compat FORMAT NAME`: deletes `key` when it is a lock of `format`
    // (whoever holds it), with the format's unlock message, and records `forcer` in the history
    // of `keys` (dlock's side). Returns what it broke; a key of another type is left alone.
    virtual Result<CompatReading> compat_force_release(CompatFormat format, const std::string& key,
                                                       const Keys& keys, const HolderInfo& forcer);

    // The names under `prefix` in `scope` (in use: held, waited for, a semaphore or a latch;
    // known: also those with run counters), sorted; with a quorum, those found on any member.
    virtual Result<std::vector<std::string>> names(const std::string& prefix, NameScope scope) = 0;
    // The state of `names` (empty: every name in use).
    virtual Result<StatusReading> status(const std::string& prefix,
                                         const std::vector<std::string>& names) = 0;
    // The newest `count` entries of a name's history, newest first.
    virtual Result<std::vector<HistoryEntry>> history(const Keys& keys, int64_t count) = 0;
    // Breaks the lock whoever holds it; `forcer` goes into the history.
    virtual Result<std::vector<MemberBroken>>
    force_release(const Keys& keys, const HolderInfo& forcer, Millis heartbeat) = 0;
    // Removes a free name's history, run counters, fencing counter and once-per slot in one
    // script; a held name is left as it is. Under a quorum, each member decides on its own.
    virtual Result<std::vector<MemberForgotten>> forget(const Keys& keys) = 0;
    // `dlock pause`: no new hold of the name until the pause ends (lock/pause.hpp); `dlock
    // resume` ends it. Under a quorum, on every member: a pause holds once a majority has it.
    virtual Result<std::vector<MemberPaused>> pause(const Keys& keys,
                                                    const PauseRequest& request) = 0;
    virtual Result<std::vector<MemberResumed>> resume(const Keys& keys, const HolderInfo& who) = 0;

    // With capabilities().semaphores only.
    virtual Result<SemaphorePermits> semaphore(const std::string& prefix,
                                               const std::string& name) = 0;
    // Breaks permit `permit` of a semaphore, or every permit when it is "".
    virtual Result<BrokenPermits> force_release_permits(const Keys& keys, std::string_view permit,
                                                        const HolderInfo& forcer,
                                                        Millis heartbeat) = 0;
    // With capabilities().latches only.
    virtual std::unique_ptr<Latches> latches() = 0;
    // With capabilities().once_per only.
    virtual std::unique_ptr<Slots> slots() { return nullptr; }
};

} // namespace dlock::lock
