#include "cli/status_command.hpp"

#include "app/compat_inspect.hpp"
#include "app/status.hpp"
#include "app/status_watch.hpp"
#include "cli/all_view.hpp"
#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/exit_help.hpp"
#include "cli/status_view.hpp"
#include "cli/watch_view.hpp"
#include "util/output.hpp"

#include <cctype>
#include <fmt/format.h>
#include <unistd.h>

namespace dlock::cli {
namespace {

constexpr Millis kMinInterval{100};
constexpr Millis kMaxInterval{3'600'000};

// The value CLI11 took after --watch: the interval when it starts as a number does ("200ms",
// "2", ".5"), else the first NAME (`dlock status --watch job`). nullopt: the default.
struct WatchValue {
    std::optional<std::string> interval;
    std::optional<std::string> name;
};

WatchValue split_watch_value(const std::vector<std::string>& values) {
    if (values.empty() || values.front().empty())
        return {};
    const unsigned char first = static_cast<unsigned char>(values.front().front());
    if (std::isdigit(first) || first == '.')
        return {values.front(), std::nullopt};
    return {std::nullopt, values.front()};
}

Result<Millis> watch_interval(const std::optional<std::string>& text) {
    if (!text)
        return Millis(1000);
    auto interval = parse_duration(*text);
    if (!interval)
        return usage_error(fmt::format("--watch {}: {}", *text, interval.error().message));
    if (*interval < kMinInterval || *interval > kMaxInterval)
        return usage_error(fmt::format("--watch {}: the interval must be from {} to {}", *text,
                                       format_duration(kMinInterval),
                                       format_duration(kMaxInterval)));
    return *interval;
}

std::string deployment_of(const app::Target& target) {
    if (!target.quorum.empty())
        return fmt::format("Redlock of {} members", target.quorum.size());
    return target.redis.display();
}

} // namespace

StatusCommand::StatusCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "status", "Show who holds locks, semaphores and latches (all under the prefix, or NAMEs)");
    app_->add_option("NAME", names_, "names to show (default: every name in use)");
    auto json = app_->add_flag("--json", json_, "print JSON instead of a table");
    auto names = app_->add_flag("--names", names_only_, "print only the names in use, one per line")
                     ->excludes(json);
    app_->add_option("--watch", watch_,
                     "redraw the table at a terminal every INTERVAL (default 1s, from 100ms to "
                     "1h), with the last runs, until Ctrl-C (then exit 0)")
        ->expected(0, 1)
        ->allow_extra_args(false) // a vector's default: it would take the NAMEs after it too
        ->option_text("[INTERVAL]")
        ->excludes(json)
        ->excludes(names);
    app_->add_flag("-l,--wide", wide_,
                   "every column: also USER, TOKEN (the fencing token), HOLDS and the age in "
                   "SINCE (the default fits 100 columns)")
        ->excludes(json)
        ->excludes(names);
    app_->add_flag("--all", all_,
                   "every name known under the prefix, free ones too, with its last run and "
                   "last success (a table, or --json)")
        ->excludes(names)
        ->excludes("--watch")
        ->excludes("--wide");
    app_->add_option("--compat", compat_,
                     "show the other library's lock NAME (its exact Redis key) in FORMAT: "
                     "redisson or setnx; one NAME")
        ->option_text("FORMAT")
        ->excludes(json)
        ->excludes(names);
    app_->footer(exit_status_help(HelpPage::status));
}

Result<StatusPlan> StatusCommand::plan(const GlobalOptions& globals) const {
    if (names_only_ && !names_.empty())
        return usage_error("--names lists every name in use; it takes no NAME");
    if (all_ && !names_.empty())
        return usage_error("--all lists every name known under the prefix; it takes no NAME");
    if (app_->count("--compat") > 0)
        return all_ ? usage_error("--compat shows one key of another library; not with --all")
                    : compat_plan(globals);
    StatusPlan plan;
    plan.names = names_;
    plan.watch = app_->count("--watch") > 0;
    if (plan.watch) {
        const WatchValue value = split_watch_value(watch_);
        if (value.name)
            plan.names.insert(plan.names.begin(), *value.name);
        TRY_ASSIGN(plan.interval, watch_interval(value.interval));
    }
    TRY_ASSIGN(plan.target, target_for(globals, plan.names));
    return plan;
}

Result<StatusPlan> StatusCommand::compat_plan(const GlobalOptions& globals) const {
    StatusPlan plan;
    TRY_ASSIGN(plan.compat, parse_compat(compat_));
    const auto format = lock::compat_name(*plan.compat);
    if (app_->count("--watch") > 0 || wide_)
        return usage_error(fmt::format("--compat {}: one line about one key: not with --watch or "
                                       "--wide",
                                       format));
    if (names_.size() != 1)
        return usage_error(fmt::format("--compat {}: one NAME only (the other side's key); got {}",
                                       format, names_.size()));
    plan.names = names_;
    TRY_ASSIGN(plan.target, compat_target_for(globals, *plan.compat, names_.front()));
    return plan;
}

Result<int> StatusCommand::run(const StatusPlan& plan) {
    if (plan.compat)
        return app::compat_status(*store_for(plan.target), plan.target, *plan.compat,
                                  plan.names.front());
    if (plan.watch)
        return watch(plan);
    const app::Target& ready = plan.target;
    const auto store = store_for(ready);
    TRY_ASSIGN(const auto answer, app::status(*store, ready, {names_, json_, names_only_, all_}));
    if (all_) {
        out::write(json_ ? all_json(answer) : all_table(answer, ready.prefix));
        return answer.exit_status;
    }
    const StatusStyle style = names_only_ ? StatusStyle::names
                              : json_     ? StatusStyle::json
                              : wide_     ? StatusStyle::wide
                                          : StatusStyle::table;
    out::write(status_text(answer, ready.prefix, style));
    return answer.exit_status;
}

Result<int> StatusCommand::watch(const StatusPlan& plan) const {
    if (!isatty(STDOUT_FILENO))
        return usage_error("status --watch needs a terminal (stdout is not one); use dlock "
                           "status, or dlock metrics for monitoring");
    const auto store = store_for(plan.target);
    const WatchHeader header{plan.target.prefix, deployment_of(plan.target), plan.interval,
                             wide_ ? StatusStyle::wide : StatusStyle::table};
    return app::watch_status(
        *store, plan.target, {plan.names, plan.interval},
        [&](const app::WatchState& state) { return watch_lines(state, header); });
}

} // namespace dlock::cli
