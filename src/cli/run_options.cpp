#include "cli/run_options.hpp"

#include "cli/compat_option.hpp"
#include "cli/numbers.hpp"
#include "cli/once_per_options.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "lock/lease_clock.hpp"
#include "util/duration.hpp"
#include "util/signals.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

// Every name validated; a name given twice is taken once (the names are a set: `run a a` is
// `run a`), in the order of first appearance.
Result<std::vector<std::string>> distinct_names(const std::vector<std::string>& given) {
    for (const auto& text : given)
        TRY(lock::validate_name(text));
    return lock::distinct(given);
}

template <typename T>
Result<T> for_option(std::string_view option, Result<T> r) {
    if (!r)
        r.error().message = fmt::format("{}: {}", option, r.error().message);
    return r;
}

// What to exec: the command after "--", or -c's STRING under /bin/sh.
Result<void> parse_command(const RunArgs& args, app::RunOptions& o) {
    if (args.acquire) {
        if (!args.command.empty() || args.shell_command)
            return usage_error("acquire takes no command; use dlock run NAME -- COMMAND to run "
                               "one under the lock");
        return {};
    }
    if (args.shell_command) {
        if (args.shell_command->empty())
            return usage_error("-c: the shell command must not be empty");
        // `--`: a STRING starting with - or + is the command, not options of sh's (`-e` would
        // make sh read its commands from stdin). dash and bash both take it.
        o.argv = {"/bin/sh", "-c", "--", *args.shell_command, "sh"};
        o.argv.insert(o.argv.end(), args.command.begin(), args.command.end());
        o.command_line = lock::command_line({*args.shell_command});
        return {};
    }
    if (args.command.empty()) {
        const char* usage = args.semaphore ? "sem run" : "run";
        return usage_error(fmt::format("missing command: use {0} {1} -- COMMAND [ARG...] or "
                                       "{0} {1} -c 'shell command'",
                                       usage, args.semaphore ? "NAME" : "NAME..."));
    }
    o.argv = args.command;
    o.command_line = lock::command_line(args.command);
    return {};
}

// -w/--wait, or --timeout: flock's name for it.
Result<void> parse_wait(const RunArgs& args, app::RunOptions& o) {
    if (args.wait && args.timeout)
        return usage_error(
            "-w/--wait and --timeout are the same option (--timeout is flock's name): give one");
    if (args.wait || args.timeout) {
        TRY_ASSIGN(o.wait, for_option(args.wait ? "--wait" : "--timeout",
                                      parse_wait_duration(args.wait ? *args.wait : *args.timeout)));
    }
    return {};
}

// --ttl and --kill-after, which must fit in it.
Result<void> parse_lease(const RunArgs& args, app::RunOptions& o) {
    if (args.ttl) {
        TRY_ASSIGN(o.ttl, for_option("--ttl", parse_duration(*args.ttl)));
        if (o.ttl < kMinTtl || o.ttl > kMaxTtl)
            return usage_error(fmt::format("--ttl {}: must be from {} to {}", *args.ttl,
                                           format_duration(kMinTtl), format_duration(kMaxTtl)));
    }
    o.kill_after = lock::default_kill_after(o.ttl);
    if (args.kill_after) {
        TRY_ASSIGN(const Millis grace,
                   for_option("--kill-after", parse_duration(*args.kill_after)));
        // The stop signal goes out at the latest (last renewal + TTL - margin - grace): the
        // grace must leave room for at least one renewal period before that.
        const Millis most = lock::renewal_interval(o.ttl);
        if (grace > most)
            return usage_error(fmt::format(
                "--kill-after {} does not fit in --ttl {}: the command must be killed before "
                "the lease can expire, so --kill-after may be at most TTL/{} ({})",
                *args.kill_after, format_duration(o.ttl), lock::kRenewalsPerTtl,
                format_duration(most)));
        o.kill_after = grace;
    }
    return {};
}

Result<void> parse_min_hold(const RunArgs& args, app::RunOptions& o) {
    if (!args.min_hold)
        return {};
    TRY_ASSIGN(o.min_hold, for_option("--min-hold", parse_duration(*args.min_hold)));
    if (o.min_hold > kMaxTtl)
        return usage_error(fmt::format("--min-hold {}: must be at most {}", *args.min_hold,
                                       format_duration(kMaxTtl)));
    if (o.shared && o.min_hold > Millis(0))
        return usage_error("--min-hold applies to exclusive locks only, not with --shared");
    return {};
}

} // namespace

Result<app::RunOptions> parse_run_options(const RunArgs& args) {
    app::RunOptions o;
    auto compat_named = compat_names(args.compat, args.names);
    TRY_ASSIGN(o.names, compat_named ? std::move(*compat_named) : distinct_names(args.names));
    TRY(parse_command(args, o));
    TRY(parse_wait(args, o));
    if (args.conflict_exit_code) {
        TRY_ASSIGN(o.conflict_exit_code,
                   parse_exit_status(*args.conflict_exit_code, "--conflict-exit-code"));
    }
    TRY(parse_lease(args, o));
    if (args.lost_signal) {
        TRY_ASSIGN(o.lost_signal, for_option("--lost-signal", parse_signal(*args.lost_signal)));
    }
    o.shared = args.shared;
    if (args.semaphore) {
        TRY_ASSIGN(o.permits, parse_integer(args.permits, 1, kMaxPermits, "--permits"));
    }
    TRY(parse_min_hold(args, o));
    if (args.max_run) {
        TRY_ASSIGN(o.max_run, for_option("--max-run", parse_duration(*args.max_run)));
        if (*o.max_run <= Millis(0))
            return usage_error(fmt::format(
                "--max-run {}: must be more than 0 (the longest the command may run, e.g. 2h)",
                *args.max_run));
    }
    TRY(parse_once_per(args, o));
    TRY(apply_compat(args.compat, args.semaphore, o));
    return o;
}

} // namespace dlock::cli
