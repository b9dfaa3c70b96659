#include "cli/run_command.hpp"

#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/exit_help.hpp"
#include "cli/help_formatter.hpp"
#include "lock/lease_clock.hpp"
#include "util/duration.hpp"
#include "util/exit_codes.hpp"

#include <fmt/format.h>

namespace dlock::cli {

std::optional<std::string> RunCommand::Valued::given() const {
    if (!option || option->count() == 0)
        return std::nullopt;
    return value;
}

namespace {

void exclude(CLI::Option* option, CLI::Option* other) {
    if (option != nullptr && other != nullptr)
        option->excludes(other);
}

} // namespace

RunCommand::RunCommand(CLI::App& parent, Kind kind, const std::vector<std::string>* words)
    : words_(words), semaphore_(kind == Kind::semaphore), acquire_(kind == Kind::acquire) {
    if (acquire_) {
        add_acquire(parent);
        return;
    }
    const std::string usage =
        semaphore_ ? "dlock sem run [OPTIONS] -p N NAME" : "dlock run [OPTIONS] NAME...";
    app_ = parent.add_subcommand("run", semaphore_
                                            ? "Run a command while holding one of N permits"
                                            : "Run a command while holding a lock (or several)");
    HelpFormatter::set_usage(
        *app_, {usage + " -- COMMAND [ARGS...]", usage + " -c STRING"}, [semaphore = semaphore_] {
            const std::string exit_help =
                exit_status_help(semaphore ? HelpPage::sem_run : HelpPage::run);
            return semaphore ? exit_help
                             : "\nSeveral names are taken all or none, in a fixed order (no "
                               "deadlock).\n" +
                                   exit_help;
        });
    add_names();
    add_wait_options();
    add_lease_options();
    add_command_options();
    add_once_per_options();
    if (!semaphore_ && wanted("--compat"))
        compat_.option = add_compat_option(*app_, compat_.value);
}

// `dlock acquire`: run's options without a command (-c); the acquire's own are added by
// cli/acquire_command.cpp.
void RunCommand::add_acquire(CLI::App& parent) {
    app_ = parent.add_subcommand("acquire", "Take a lock for the rest of a shell script: a "
                                            "keeper process renews it until the script exits");
    HelpFormatter::set_usage(*app_, {"dlock acquire [OPTIONS] NAME..."}, [] {
        return "\nIn a script:  out=$(dlock acquire NAME) || exit 0; eval \"$out\"; ...; dlock "
               "release\nThe keeper releases the lock when the owner (by default the process "
               "that ran dlock:\nthe script's shell; --pid to name another) exits.\n" +
               exit_status_help(HelpPage::acquire);
    });
    add_names();
    add_wait_options();
    add_lease_options();
    add_command_options();
}

void RunCommand::add_names() {
    if (semaphore_) // one NAME: a second one is an unexpected argument
        app_->add_option("NAME", semaphore_name_,
                         "semaphore name: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = -")
            ->required();
    else
        app_->add_option("NAME", names_,
                         "lock names: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = - each")
            ->required();
}

bool RunCommand::wanted(std::string_view names) const {
    return words_ == nullptr || may_use(names, *words_);
}

// -n, -w, and -p or -s/-x: whether and how long to wait, for what.
void RunCommand::add_wait_options() {
    // What is obtained: a lock, or under `sem run` one of the N permits.
    const char* lock = semaphore_ ? "a permit" : "the lock";
    CLI::Option* no_wait = nullptr;
    if (wanted("-n,--no-wait"))
        no_wait = app_->add_flag("-n,--no-wait", no_wait_,
                                 semaphore_ ? "give up at once if no permit is free (the default)"
                                            : "give up at once if the lock is held (the default)");
    if (wanted("-w,--wait"))
        wait_.option =
            app_->add_option(
                    "-w,--wait", wait_.value,
                    fmt::format("wait up to DURATION for {} ('forever' waits without limit)", lock))
                ->option_text("DURATION");
    // flock(1)'s name for the wait. Not one more name of -w: giving both is refused with a
    // message that says they are one option (see parse_run_options).
    if (wanted("--timeout"))
        timeout_.option = app_->add_option("--timeout", timeout_.value,
                                           "the same as -w/--wait (flock's name for it)")
                              ->option_text("DURATION");
    exclude(wait_.option, no_wait);
    exclude(timeout_.option, no_wait);
    add_holder_options();
    if (wanted("-E,--conflict-exit-code"))
        conflict_exit_code_.option =
            app_->add_option(
                    "-E,--conflict-exit-code", conflict_exit_code_.value,
                    fmt::format("exit status when {} (default {})",
                                semaphore_ ? "no permit was obtained" : "the lock was not obtained",
                                exit_code::busy))
                ->option_text("N");
}

// -p N (required) under `sem run`, or -s/-x.
void RunCommand::add_holder_options() {
    if (semaphore_) {
        app_->add_option("-p,--permits", permits_,
                         "at most N holders at once (required; the same N on every host)")
            ->option_text("N")
            ->required();
    } else {
        CLI::Option* shared = nullptr;
        CLI::Option* exclusive = nullptr;
        if (wanted("-s,--shared"))
            shared = app_->add_flag("-s,--shared", shared_,
                                    "take the lock shared: shared holders run together");
        if (wanted("-x,--exclusive"))
            exclusive = app_->add_flag("-x,--exclusive", exclusive_,
                                       "take the lock exclusively (the default)");
        exclude(exclusive, shared);
    }
}

// --ttl, --kill-after, --lost-signal: the lease and what happens when it is lost.
void RunCommand::add_lease_options() {
    if (wanted("--ttl"))
        ttl_.option =
            app_->add_option("--ttl", ttl_.value,
                             fmt::format("lease length, renewed every TTL/{} (default {})",
                                         lock::kRenewalsPerTtl, format_duration(lock::kDefaultTtl)))
                ->option_text("DURATION");
    if (wanted("-k,--kill-after"))
        kill_after_.option =
            app_->add_option(
                    "-k,--kill-after", kill_after_.value,
                    fmt::format(
                        "after a lost lease{}, SIGKILL the {} this long "
                        "after the stop signal (default TTL/{}, at most {}; at most TTL/{})",
                        " or --max-run", acquire_ ? "owner" : "command", lock::kKillAfterPerTtl,
                        format_duration(lock::kMaxDefaultKillAfter), lock::kRenewalsPerTtl))
                ->option_text("DURATION");
    if (wanted("--lost-signal"))
        lost_signal_.option =
            app_->add_option("--lost-signal", lost_signal_.value,
                             acquire_ ? "signal sent to the owner (only) when the lease is lost "
                                        "(default TERM)"
                                      : "signal sent to the command's process group when the "
                                        "lease is lost (default TERM)")
                ->option_text("SIGNAL");
}

// -c, --min-hold, --max-run: what runs, for how long at least, and at most.
void RunCommand::add_command_options() {
    if (!acquire_ && wanted("-c,--command"))
        shell_command_.option =
            app_->add_option("-c,--command", shell_command_.value, "run STRING with /bin/sh -c")
                ->option_text("STRING");
    if (!semaphore_ && wanted("--min-hold")) // a permit is not kept after its command
        min_hold_.option =
            app_->add_option("--min-hold", min_hold_.value,
                             fmt::format("keep the lock at least DURATION after acquiring it, "
                                         "even if the command finishes sooner (cron on hosts "
                                         "with skewed clocks; at most {})",
                                         format_duration(kMaxTtl)))
                ->option_text("DURATION");
    if (wanted("--max-run"))
        max_run_.option =
            app_->add_option("--max-run", max_run_.value,
                             acquire_ ? fmt::format("stop the owner DURATION after acquiring (the "
                                                    "--lost-signal, then SIGKILL after "
                                                    "--kill-after); release then exits {}",
                                                    exit_code::timed_out)
                                      : fmt::format("stop the command after DURATION (the "
                                                    "--lost-signal, then SIGKILL after "
                                                    "--kill-after) and exit {}",
                                                    exit_code::timed_out))
                ->option_text("DURATION");
}

// --once-per and its companions: at most one successful run per slot of the server's clock.
void RunCommand::add_once_per_options() {
    if (semaphore_ || acquire_) // a slot is done by a command's success: neither has one
        return;
    if (wanted("--once-per"))
        once_per_.option = app_->add_option("--once-per", once_per_.value,
                                            "run at most once successfully per PERIOD of Redis's "
                                            "clock (slots from the epoch, UTC); skips exit 0")
                               ->option_text("PERIOD");
    if (wanted("--offset"))
        offset_.option = app_->add_option("--offset", offset_.value,
                                          "shift the slot boundaries by DURATION (--offset=-1h "
                                          "for a negative one; less than PERIOD)")
                             ->option_text("DURATION");
    if (wanted("--tolerance"))
        tolerance_.option =
            app_->add_option("--tolerance", tolerance_.value,
                             "a run up to DURATION before a boundary counts toward the next "
                             "slot (default PERIOD/10, at most 5m; at most PERIOD/2)")
                ->option_text("DURATION");
    if (wanted("--once-per-strict"))
        app_->add_flag("--once-per-strict", once_per_strict_,
                       "close the slot when a run starts, even if it then fails");
}

RunArgs RunCommand::args(const std::vector<std::string>& command) const {
    RunArgs a;
    a.semaphore = semaphore_;
    a.names = semaphore_ ? std::vector{semaphore_name_} : names_;
    a.command = command;
    a.shell_command = shell_command_.given();
    a.wait = wait_.given();
    a.timeout = timeout_.given();
    a.conflict_exit_code = conflict_exit_code_.given();
    a.ttl = ttl_.given();
    a.kill_after = kill_after_.given();
    a.lost_signal = lost_signal_.given();
    a.shared = shared_;
    a.min_hold = min_hold_.given();
    a.max_run = max_run_.given();
    a.permits = permits_;
    a.acquire = acquire_;
    a.once_per = once_per_.given();
    a.offset = offset_.given();
    a.tolerance = tolerance_.given();
    a.once_per_strict = once_per_strict_;
    a.compat = compat_.given();
    return a;
}

Result<RunCommand::Plan> RunCommand::plan(const GlobalOptions& globals,
                                          const std::vector<std::string>& command) const {
    TRY_ASSIGN(auto target, globals.resolve());
    TRY_ASSIGN(auto run_options, parse_run_options(args(command)));
    TRY(check_compat_target(run_options, target));
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
