#include "cli/check_command.hpp"

#include "cli/exit_help.hpp"
#include "lock/keys.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

// The value of --max-age or --warn-age: a duration above zero, or a usage error naming it.
Result<Millis> parse_age(std::string_view option, const std::string& text) {
    auto age = parse_duration(text);
    if (!age)
        return usage_error(fmt::format("{} {}: {}", option, text, age.error().message));
    if (age->count() <= 0)
        return usage_error(fmt::format("{} {}: must be more than 0 (e.g. 1d)", option, text));
    return age;
}

} // namespace

CheckCommand::CheckCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "check", "Monitoring plugin (Nagios, Icinga, Sensu, Zabbix): did NAME succeed within "
                 "--max-age?");
    app_->add_option("NAME", names_, "the names to check (the worst state wins)")->required();
    max_age_option_ =
        app_->add_option("--max-age", max_age_,
                         "CRITICAL when the last success is older than DURATION, or never was "
                         "(required)")
            ->option_text("DURATION");
    warn_age_option_ =
        app_->add_option("--warn-age", warn_age_,
                         "WARNING when the last success is older than DURATION (below --max-age)")
            ->option_text("DURATION");
    app_->footer(exit_status_help(HelpPage::check));
}

Result<CheckCommand::Plan> CheckCommand::plan(const GlobalOptions& globals) const {
    Plan p;
    if (max_age_option_->count() == 0)
        return usage_error("check needs --max-age DURATION (how old the last success may be)");
    TRY_ASSIGN(p.options.limits.max_age, parse_age("--max-age", max_age_));
    if (warn_age_option_->count() > 0) {
        TRY_ASSIGN(p.options.limits.warn_age, parse_age("--warn-age", warn_age_));
        if (*p.options.limits.warn_age >= p.options.limits.max_age)
            return usage_error(
                fmt::format("--warn-age {} must be less than --max-age {}", warn_age_, max_age_));
    }
    p.options.names = lock::distinct(names_);
    TRY_ASSIGN(p.target, target_for(globals, p.options.names));
    return p;
}

Result<int> CheckCommand::run(const Plan& p) {
    return app::check(*store_for(p.target), p.target, p.options);
}

} // namespace dlock::cli
