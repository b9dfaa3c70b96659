#include "cli/run_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/numbers.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "util/duration.hpp"
#include "util/signals.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

constexpr Millis kMinTtl{1000};
constexpr Millis kMaxTtl{24 * 3600 * 1000};
constexpr int64_t kMaxPermits = 1'000'000;

// Every name validated; a name given twice is taken once (the names are a set: `run a a` is
// `run a`), in the order of first appearance.
Result<std::vector<std::string>> distinct_names(const std::vector<std::string>& given) {
    std::vector<std::string> names;
    names.reserve(given.size());
    for (const auto& text : given) {
        TRY_ASSIGN(auto name, lock::validate_name(text));
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(std::move(name));
    }
    return names;
}

template <typename T>
Result<T> for_option(std::string_view option, Result<T> r) {
    if (!r)
        r.error().message = fmt::format("{}: {}", option, r.error().message);
    return r;
}

} // namespace

RunCommand::RunCommand(CLI::App& parent, Kind kind) {
    semaphore_ = kind == Kind::semaphore;
    const bool semaphore = semaphore_;
    usage_ = semaphore ? "sem run" : "run";
    // What is obtained: a lock, or under `sem run` one of the N permits.
    const char* lock = semaphore ? "a permit" : "the lock";
    const std::string what = semaphore ? "[options] -p N NAME" : "[options] NAME...";
    app_ =
        parent.add_subcommand("run", semaphore ? "Run a command while holding one of N permits"
                                               : "Run a command while holding a lock (or several)");
    app_->footer(fmt::format(
        "\nUsage:\n  dlock [global options] {} {} -- COMMAND [ARG...]\n"
        "  dlock [global options] {} {} -c 'shell command'{}{}",
        usage_, what, usage_, what,
        semaphore ? ""
                  : "\nSeveral names are taken all or none, in a fixed "
                    "order (no deadlock).",
        fmt::format("\n{}", exit_status_help(semaphore ? HelpPage::sem_run : HelpPage::run))));
    if (semaphore) // one NAME: a second one is an unexpected argument
        app_->add_option("NAME", semaphore_name_,
                         "semaphore name: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = -")
            ->required();
    else
        app_->add_option("NAME", names_,
                         "lock names: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = - each")
            ->required();
    auto no_wait = app_->add_flag("-n,--no-wait", no_wait_,
                                  semaphore ? "give up at once if no permit is free (the default)"
                                            : "give up at once if the lock is held (the default)");
    wait_option_ =
        app_->add_option(
                "-w,--wait", wait_,
                fmt::format("wait up to DURATION for {} ('forever' waits without limit)", lock))
            ->option_text("DURATION")
            ->excludes(no_wait);
    if (semaphore) {
        app_->add_option("-p,--permits", permits_,
                         "at most N holders at once (required; the same N on every host)")
            ->option_text("N")
            ->required();
    } else {
        auto shared = app_->add_flag("-s,--shared", shared_,
                                     "take the lock shared: shared holders run together");
        app_->add_flag("-x,--exclusive", exclusive_, "take the lock exclusively (the default)")
            ->excludes(shared);
    }
    app_->add_option("-E,--conflict-exit-code", conflict_exit_code_,
                     semaphore ? "exit status when no permit was obtained (default 75)"
                               : "exit status when the lock was not obtained (default 75)")
        ->option_text("N");
    app_->add_option("--ttl", ttl_, "lease length, renewed every TTL/3 (default 30s)")
        ->option_text("DURATION");
    kill_after_option_ =
        app_->add_option("-k,--kill-after", kill_after_,
                         "after a lost lease, SIGKILL the command this long after the stop signal "
                         "(default TTL/6, at most 5s; at most TTL/3)")
            ->option_text("DURATION");
    app_->add_option("--lost-signal", lost_signal_,
                     "signal sent to the command's process group when the lease is lost "
                     "(default TERM)")
        ->option_text("SIGNAL");
    shell_option_ = app_->add_option("-c,--command", shell_command_, "run STRING with /bin/sh -c")
                        ->option_text("STRING");
    if (!semaphore) // a permit is not kept after its command
        min_hold_option_ =
            app_->add_option("--min-hold", min_hold_,
                             "keep the lock at least DURATION after acquiring it, even if the "
                             "command finishes sooner (cron on hosts with skewed clocks; at most "
                             "24h)")
                ->option_text("DURATION");
}

Result<app::RunOptions> RunCommand::options(const std::vector<std::string>& command) const {
    app::RunOptions o;
    TRY_ASSIGN(o.names, distinct_names(semaphore_ ? std::vector{semaphore_name_} : names_));

    if (shell_option_->count() > 0) {
        if (shell_command_.empty())
            return usage_error("-c: the shell command must not be empty");
        // `--`: a STRING starting with - or + is the command, not options of sh's (`-e` would
        // make sh read its commands from stdin). dash and bash both take it.
        o.argv = {"/bin/sh", "-c", "--", shell_command_, "sh"};
        o.argv.insert(o.argv.end(), command.begin(), command.end());
        o.command_line = lock::command_line({shell_command_});
    } else if (!command.empty()) {
        o.argv = command;
        o.command_line = lock::command_line(command);
    } else {
        return usage_error(fmt::format("missing command: use {0} {1} -- COMMAND [ARG...] or "
                                       "{0} {1} -c 'shell command'",
                                       usage_, semaphore_ ? "NAME" : "NAME..."));
    }

    if (wait_option_->count() > 0) {
        TRY_ASSIGN(o.wait, for_option("--wait", parse_wait_duration(wait_)));
    }
    TRY_ASSIGN(o.conflict_exit_code,
               parse_exit_status(conflict_exit_code_, "--conflict-exit-code"));

    TRY_ASSIGN(o.ttl, for_option("--ttl", parse_duration(ttl_)));
    if (o.ttl < kMinTtl || o.ttl > kMaxTtl)
        return usage_error(fmt::format("--ttl {}: must be from {} to {}", ttl_,
                                       format_duration(kMinTtl), format_duration(kMaxTtl)));

    o.kill_after = std::min(Millis(5000), o.ttl / 6);
    if (kill_after_option_->count() > 0) {
        TRY_ASSIGN(const Millis grace, for_option("--kill-after", parse_duration(kill_after_)));
        // The stop signal goes out at the latest (last renewal + TTL - margin - grace): the
        // grace must leave room for at least one renewal period before that.
        if (grace > o.ttl / 3)
            return usage_error(fmt::format(
                "--kill-after {} does not fit in --ttl {}: the command must be killed before "
                "the lease can expire, so --kill-after may be at most TTL/3 ({})",
                kill_after_, format_duration(o.ttl), format_duration(o.ttl / 3)));
        o.kill_after = grace;
    }

    TRY_ASSIGN(o.lost_signal, for_option("--lost-signal", parse_signal(lost_signal_)));
    o.shared = shared_;
    if (semaphore_) {
        TRY_ASSIGN(o.permits, parse_integer(permits_, 1, kMaxPermits, "--permits"));
    }
    if (min_hold_option_ && min_hold_option_->count() > 0) {
        TRY_ASSIGN(o.min_hold, for_option("--min-hold", parse_duration(min_hold_)));
        if (o.min_hold > kMaxTtl)
            return usage_error(fmt::format("--min-hold {}: must be at most {}", min_hold_,
                                           format_duration(kMaxTtl)));
        if (o.shared && o.min_hold > Millis(0))
            return usage_error("--min-hold applies to exclusive locks only, not with --shared");
    }
    return o;
}

Result<RunCommand::Plan> RunCommand::plan(const GlobalOptions& globals,
                                          const std::vector<std::string>& command) const {
    TRY_ASSIGN(auto target, globals.resolve());
    TRY_ASSIGN(auto run_options, options(command));
    return Plan{std::move(target), std::move(run_options)};
}

Result<void> RunCommand::check(const GlobalOptions& globals,
                               const std::vector<std::string>& command) const {
    return plan(globals, command).map([](const Plan&) {});
}

Result<int> RunCommand::execute(const GlobalOptions& globals,
                                const std::vector<std::string>& command) {
    TRY_ASSIGN(const auto ready, plan(globals, command));
    return app::run(*store_for(ready.target), ready.target, ready.options);
}

} // namespace dlock::cli
