#include "app/stop_policy.hpp"

#include "util/exit_codes.hpp"

namespace dlock::app {

process::StopRule::Policy stop_policy(const RunOptions& options, lock::LeaseSet& leases) {
    process::StopRule::Policy policy;
    if (options.max_run)
        policy.time_up_at = process::StopRule::Clock::now() + *options.max_run;
    policy.stop_at = [&leases] { return leases.stop_at(); };
    policy.signal = options.lost_signal;
    policy.grace = options.kill_after;
    // Renewals start when the first is due, so a short job never starts a thread.
    policy.start_at = leases.renewals_due() - Millis(1);
    policy.start = [&leases] { leases.start_renewals(); };
    return policy;
}

lock::Outcome counted_outcome(bool stopped, bool timed_out, std::optional<int> exit_status) {
    if (stopped)
        return lock::Outcome::lost;
    if (timed_out)
        return lock::Outcome::timed_out;
    if (!exit_status)
        return lock::Outcome::unknown;
    return *exit_status == exit_code::ok ? lock::Outcome::ok : lock::Outcome::failed;
}

} // namespace dlock::app
