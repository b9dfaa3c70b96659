#pragma once

#include "lock/backend.hpp"
#include "lock/compat.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/stores/compat_replies.hpp"

#include <chrono>
#include <map>
#include <string>

namespace dlock::redis {

// What every `--compat` lease backend shares: the lease itself lives in the other library's
// format at keys.lock (the other side's key, as given), renewed and released by that format's
// scripts; the dlock side's history and run counters live under dlock's prefix (keys.history,
// keys.runs) and are written by lua/compat_record.lua in a round trip of their own after an
// acquisition, a refusal and a release (the other side's key may be in another Cluster slot).
// A record that fails never fails the lease (logged at -v). There is no fencing token: no such
// format has one (0 is exported). Not a queue: waiting is each format's own (await_grant).
class CompatBackend : public lock::Backend, public lock::History {
  public:
    CompatBackend(Deployment deployment, lock::CompatFormat format)
        : session_(std::move(deployment)), format_(format) {}

    Result<void> connect() { return session_.connect(); }

    Result<lock::AcquireOutcome> acquire(const lock::Keys& keys,
                                         const lock::AcquireRequest& request) final;
    using lock::Backend::renew;
    // One renewal script per lease, pipelined.
    std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> requests) final;
    Result<std::optional<int64_t>> release(const lock::Keys& keys,
                                           const lock::ReleaseRequest& request) final;
    // Nobody queues in these formats: nothing to leave.
    Result<void> leave_queue(const lock::Keys&, std::string_view, Millis) override { return {}; }

    lock::History* history() final { return this; }
    Result<void> append(const lock::Keys& keys, const lock::HistoryFields& fields) final;

  protected:
    using Clock = std::chrono::steady_clock;

    // The format's acquire script, with `value` the owner value (lock::compat_owner).
    virtual Result<CompatAcquireReply> take(const lock::Keys& keys, const std::string& value,
                                            const lock::AcquireRequest& request) = 0;
    virtual const EmbeddedScript& renew_script() const = 0;
    // The format's release script: holds left, nullopt when not ours. `keep`: how much longer
    // the lease must stay (--min-hold), 0 for none.
    virtual Result<std::optional<int64_t>> give(const lock::Keys& keys, const std::string& value,
                                                const lock::ReleaseRequest& request,
                                                Millis keep) = 0;
    // True when `hold_id` is the same request as the last acquire sent (a retry).
    bool replay(std::string_view hold_id) const { return hold_id == last_hold_; }

    ScriptSession session_;
    lock::CompatFormat format_;

  private:
    // Writes an event under dlock's prefix; a failure is only logged.
    void record(const lock::Keys& keys, const lock::HistoryFields& fields);
    void record_refusal(const lock::Keys& keys, const lock::AcquireRequest& request,
                        const CompatAcquireReply& reply);

    std::string last_hold_;
    // When each hold we still have was taken: durations and --min-hold.
    std::map<std::string, Clock::time_point, std::less<>> taken_;
};

} // namespace dlock::redis
