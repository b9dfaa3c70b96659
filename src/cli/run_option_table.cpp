#include "cli/run_option_table.hpp"

#include "cli/compat_option.hpp"
#include "cli/numbers.hpp"
#include "lock/lease_clock.hpp"
#include "util/duration.hpp"
#include "util/exit_codes.hpp"
#include "util/signals.hpp"

#include <array>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

using app::RunOptions;

template <typename T>
Result<T> for_option(std::string_view option, Result<T> r) {
    if (!r)
        r.error().message = fmt::format("{}: {}", option, r.error().message);
    return r;
}

Result<void> set_wait(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.wait, for_option("--wait", parse_wait_duration(value)));
    return {};
}

Result<void> set_timeout(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.wait, for_option("--timeout", parse_wait_duration(value)));
    return {};
}

Result<void> set_permits(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.permits, parse_integer(value, 1, kMaxPermits, "--permits"));
    return {};
}

Result<void> set_shared(std::string_view, RunOptions& o) {
    o.shared = true;
    return {};
}

Result<void> set_conflict_exit_code(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.conflict_exit_code, parse_exit_status(value, "--conflict-exit-code"));
    return {};
}

// --ttl, and the default --kill-after that follows from it.
Result<void> set_ttl(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.ttl, for_option("--ttl", parse_duration(value)));
    if (o.ttl < kMinTtl || o.ttl > kMaxTtl)
        return usage_error(fmt::format("--ttl {}: must be from {} to {}", value,
                                       format_duration(kMinTtl), format_duration(kMaxTtl)));
    o.kill_after = lock::default_kill_after(o.ttl);
    return {};
}

// After --ttl: the grace must fit in it.
Result<void> set_kill_after(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(const Millis grace, for_option("--kill-after", parse_duration(value)));
    // The stop signal goes out at the latest (last renewal + TTL - margin - grace): the grace
    // must leave room for at least one renewal period before that.
    const Millis most = lock::renewal_interval(o.ttl);
    if (grace > most)
        return usage_error(fmt::format(
            "--kill-after {} does not fit in --ttl {}: the command must be killed before the "
            "lease can expire, so --kill-after may be at most TTL/{} ({})",
            value, format_duration(o.ttl), lock::kRenewalsPerTtl, format_duration(most)));
    o.kill_after = grace;
    return {};
}

Result<void> set_lost_signal(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.lost_signal, for_option("--lost-signal", parse_signal(value)));
    return {};
}

// After -s: a minimum hold is for exclusive locks.
Result<void> set_min_hold(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.min_hold, for_option("--min-hold", parse_duration(value)));
    if (o.min_hold > kMaxTtl)
        return usage_error(
            fmt::format("--min-hold {}: must be at most {}", value, format_duration(kMaxTtl)));
    if (o.shared && o.min_hold > Millis(0))
        return usage_error("--min-hold applies to exclusive locks only, not with --shared");
    return {};
}

Result<void> set_max_run(std::string_view value, RunOptions& o) {
    TRY_ASSIGN(o.max_run, for_option("--max-run", parse_duration(value)));
    if (*o.max_run <= Millis(0))
        return usage_error(fmt::format(
            "--max-run {}: must be more than 0 (the longest the command may run, e.g. 2h)", value));
    return {};
}

// After --min-hold: a lock kept past its release would be left to expire with its records.
Result<void> set_ephemeral(std::string_view, RunOptions& o) {
    if (o.min_hold > Millis(0))
        return usage_error("--ephemeral: not with --min-hold (the lock is kept after the "
                           "release, and its records with it)");
    o.ephemeral = true;
    return {};
}

constexpr RunKinds kRun = static_cast<RunKinds>(RunKind::run);
constexpr RunKinds kSemaphore = static_cast<RunKinds>(RunKind::semaphore);
constexpr RunKinds kAcquire = static_cast<RunKinds>(RunKind::acquire);

constexpr std::array kRows{
    RunOptionRow{.flag = "-n,--no-wait",
                 .help = "give up at once if the lock is held (the default)",
                 .semaphore_help = "give up at once if no permit is free (the default)",
                 .aliases = "--nb,--nonblock"},
    RunOptionRow{.flag = "-w,--wait",
                 .metavar = "DURATION",
                 .help = "wait up to DURATION for {lock} ('forever' waits without limit)",
                 .excludes = "--no-wait",
                 .apply = set_wait},
    // flock(1)'s name for the wait. Not one more name of -w: giving both is refused with a
    // message that says they are one option (see parse_run_options).
    RunOptionRow{.flag = "--timeout",
                 .metavar = "DURATION",
                 .help = "the same as -w/--wait (flock's name for it)",
                 .excludes = "--no-wait",
                 .apply = set_timeout},
    RunOptionRow{.flag = "-p,--permits",
                 .metavar = "N",
                 .help = "at most N holders at once (required; the same N on every host)",
                 .takes = kSemaphore,
                 .required = true,
                 .apply = set_permits},
    RunOptionRow{.flag = "-s,--shared",
                 .help = "take the lock shared: shared holders run together",
                 .takes = kLockKinds,
                 .apply = set_shared},
    RunOptionRow{.flag = "-x,--exclusive",
                 .help = "take the lock exclusively (the default)",
                 .takes = kLockKinds,
                 .aliases = "-e",
                 .excludes = "--shared"},
    RunOptionRow{.flag = "-E,--conflict-exit-code",
                 .metavar = "N",
                 .help = "exit status when the lock was not obtained (default {busy})",
                 .semaphore_help = "exit status when no permit was obtained (default {busy})",
                 .apply = set_conflict_exit_code},
    RunOptionRow{.flag = "--ttl",
                 .metavar = "DURATION",
                 .help = "lease length, renewed every TTL/{renewals} (default {default_ttl})",
                 .apply = set_ttl},
    RunOptionRow{.flag = "-k,--kill-after",
                 .metavar = "DURATION",
                 .help = "after a lost lease or --max-run, SIGKILL the command this long after "
                         "the stop signal (default TTL/{kill_per_ttl}, at most "
                         "{max_default_kill}; at most TTL/{renewals})",
                 .acquire_help = "after a lost lease or --max-run, SIGKILL the owner this long "
                                 "after the stop signal (default TTL/{kill_per_ttl}, at most "
                                 "{max_default_kill}; at most TTL/{renewals})",
                 .apply = set_kill_after},
    RunOptionRow{.flag = "--lost-signal",
                 .metavar = "SIGNAL",
                 .help = "signal sent to the command's process group when the lease is lost "
                         "(default TERM)",
                 .acquire_help = "signal sent to the owner (only) when the lease is lost "
                                 "(default TERM)",
                 .apply = set_lost_signal},
    RunOptionRow{.flag = "-c,--command",
                 .metavar = "STRING",
                 .help = "run STRING with /bin/sh -c",
                 .takes = kRun | kSemaphore},
    // A permit is not kept after its command.
    RunOptionRow{.flag = "--min-hold",
                 .metavar = "DURATION",
                 .help = "keep the lock at least DURATION after acquiring it, even if the "
                         "command finishes sooner (cron on hosts with skewed clocks; at most "
                         "{max_ttl})",
                 .takes = kLockKinds,
                 .apply = set_min_hold},
    RunOptionRow{.flag = "--max-run",
                 .metavar = "DURATION",
                 .help = "stop the command after DURATION (the --lost-signal, then SIGKILL after "
                         "--kill-after) and exit {timed_out}",
                 .acquire_help = "stop the owner DURATION after acquiring (the --lost-signal, "
                                 "then SIGKILL after --kill-after); release then exits {timed_out}",
                 .apply = set_max_run},
    // Checked with --once-per and --compat once every option is read (parse_run_options).
    RunOptionRow{.flag = "--ephemeral",
                 .help = "once released, leave nothing in Redis for a free NAME: no history, run "
                         "counters, fencing counter or slot (tokens restart from Redis's clock)",
                 .takes = kLockKinds,
                 .apply = set_ephemeral},
    // At most one successful run per slot of the server's clock: a slot is done by a command's
    // success, which neither `sem run` nor `acquire` has. Read as a group by parse_once_per.
    RunOptionRow{.flag = "--once-per",
                 .metavar = "PERIOD",
                 .help = "run at most once successfully per PERIOD of Redis's clock (slots from "
                         "the epoch, UTC); skips exit 0",
                 .takes = kRun},
    RunOptionRow{.flag = "--offset",
                 .metavar = "DURATION",
                 .help = "shift the slot boundaries by DURATION (--offset=-1h for a negative one; "
                         "less than PERIOD)",
                 .takes = kRun},
    RunOptionRow{.flag = "--tolerance",
                 .metavar = "DURATION",
                 .help = "a run up to DURATION before a boundary counts toward the next slot "
                         "(default PERIOD/10, at most 5m; at most PERIOD/2)",
                 .takes = kRun},
    RunOptionRow{.flag = "--once-per-strict",
                 .help = "close the slot when a run starts, even if it then fails",
                 .takes = kRun},
    // NAME is then the other side's key: parse_run_options checks the names by the format's
    // rules, and what the format cannot express once every option is read (check_compat).
    RunOptionRow{.flag = "--compat",
                 .metavar = "FORMAT",
                 .help = "share the lock with another library: redisson (Redisson's RLock, "
                         "node-redisson) or setnx (redis-py Lock, node-redlock, redsync); NAME is "
                         "then that side's Redis key",
                 .takes = kRun | kAcquire,
                 .apply = set_compat},
};

} // namespace

std::span<const RunOptionRow> run_option_table() {
    return kRows;
}

std::string_view RunOptionRow::long_name() const {
    const size_t comma = flag.find(',');
    return comma == std::string_view::npos ? flag : flag.substr(comma + 1);
}

std::string RunOptionRow::help_for(RunKind kind) const {
    std::string_view text = help;
    if (kind == RunKind::semaphore && !semaphore_help.empty())
        text = semaphore_help;
    if (kind == RunKind::acquire && !acquire_help.empty())
        text = acquire_help;
    return fmt::format(
        fmt::runtime(text), fmt::arg("lock", kind == RunKind::semaphore ? "a permit" : "the lock"),
        fmt::arg("busy", exit_code::busy), fmt::arg("timed_out", exit_code::timed_out),
        fmt::arg("renewals", lock::kRenewalsPerTtl),
        fmt::arg("kill_per_ttl", lock::kKillAfterPerTtl),
        fmt::arg("default_ttl", format_duration(lock::kDefaultTtl)),
        fmt::arg("max_default_kill", format_duration(lock::kMaxDefaultKillAfter)),
        fmt::arg("max_ttl", format_duration(kMaxTtl)));
}

} // namespace dlock::cli
