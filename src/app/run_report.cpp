#include "app/run_report.hpp"

#include "lock/describe.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace dlock::app {

std::string why_refused(const lock::AcquireOutcome& last) {
    if (last.paused)
        return lock::describe_pause(*last.paused, wall_now_ms());
    if (last.permit_limit > 0)
        return lock::describe_permits(last, wall_now_ms());
    if (last.holder && !last.compat_holder.empty())
        return fmt::format("held by a {} client (owner {}, lease left {})", last.compat_holder,
                           last.holder->command.empty() ? "?" : last.holder->command,
                           last.lease_left.count() < 0 ? std::string("unlimited")
                                                       : format_duration(last.lease_left));
    if (last.holder && last.held_until_ms > 0)
        return fmt::format("held by {}, finished but held until {} by --min-hold",
                           lock::describe_blocker(*last.holder, wall_now_ms()),
                           lock::local_time(last.held_until_ms, wall_now_ms()));
    if (last.holder && last.shared_holders > 0)
        return fmt::format(
            "held shared by {}{}", lock::describe_blocker(*last.holder, wall_now_ms()),
            last.shared_holders == 1 ? std::string()
                                     : fmt::format(" and {} more", last.shared_holders - 1));
    if (last.holder)
        return fmt::format("held by {}", lock::describe_blocker(*last.holder, wall_now_ms()));
    return fmt::format("free, but {} waiter{} queued first", last.waiters,
                       last.waiters == 1 ? " is" : "s are");
}

int report_refusal(const RunOptions& options, const lock::Blocked& blocked) {
    const std::string why = why_refused(blocked.refused.last);
    if (blocked.refused.timed_out && options.wait)
        log::warn("timed out after {} waiting for {}, {}; not running {}",
                  format_duration(*options.wait), blocked.name, why, options.command_line);
    else if (isatty(STDERR_FILENO))
        log::warn("{} is {}; not running {}", blocked.name, why, options.command_line);
    else // cron mails every line: the skip of the host that lost the race is no news (-v)
        log::info("{} is {}; not running {}", blocked.name, why, options.command_line);
    return options.conflict_exit_code;
}

int report_lost_meanwhile(const RunOptions& options, const lock::LostMeanwhile& lost) {
    log::warn("lost the lease on {} before all names were held; not running {}", lost.name,
              options.command_line);
    return options.conflict_exit_code;
}

void report_time_up(const RunOptions& options, bool killed) {
    killed = killed && options.lost_signal != SIGKILL;
    // At error level, even in cron: a job that hangs is news, whatever its lock.
    log::error("{} ran longer than --max-run {}; it was stopped with SIG{}{}", options.command_line,
               format_duration(*options.max_run), signal_name(options.lost_signal),
               killed ? fmt::format(", then killed {} later", format_duration(options.kill_after))
                      : "");
}

void report_lease_lost(const lock::HeldLease& lease, bool paused) {
    if (paused)
        log::error("the lease on {} expired while dlock was paused (stopped or frozen); the "
                   "command was stopped",
                   lease.name());
    else if (const auto forced = lease.clock().forced())
        log::error("lost the lease on {}: {}; the command was stopped", lease.name(),
                   lock::describe_force(*forced, wall_now_ms()));
    else if (lease.clock().confirmed_lost())
        log::error("lost the lease on {}: it was released or taken over; the command was "
                   "stopped",
                   lease.name());
    else
        log::error("could not renew the lease on {} in time; the command was stopped before "
                   "the lease could expire",
                   lease.name());
}

void report_lost_while_running(const std::string& name, bool paused) {
    if (paused)
        log::error("the lease on {} expired while dlock was paused (stopped or frozen); another "
                   "holder may have run meanwhile",
                   name);
    else
        log::error("lost the lease on {} while the command ran: it vanished from Redis or was "
                   "taken over before its expiry (server restart, failover or release --force)",
                   name);
}

Error release_failed(const std::string& name, const Error& error) {
    return Error{Fault::internal,
                 fmt::format("could not release the lease on {}: {}; whether the command ran "
                             "alone under it is unknown",
                             name, error.message)};
}

void report_unconfirmed_release(const std::string& name) {
    log::error("the lease on {} may have expired while dlock was paused (stopped or frozen), "
               "and Redis could not confirm it was still held",
               name);
}

} // namespace dlock::app
