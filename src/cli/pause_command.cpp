#include "cli/pause_command.hpp"

#include "cli/exit_help.hpp"
#include "cli/until_time.hpp"
#include "lock/keys.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

constexpr Millis kLongestPause = std::chrono::hours(24 * 366);
constexpr size_t kLongestReason = 200;

// How long the pause lasts (0: until `dlock resume`), from --for or --until.
Result<Millis> pause_length(const std::optional<std::string>& for_text,
                            const std::optional<std::string>& until_text) {
    if (for_text.has_value() == until_text.has_value())
        return usage_error("dlock pause needs --for DURATION, --for forever or --until TIME "
                           "(one of them): a pause ends by itself unless it says forever");
    if (until_text)
        return until_local_time("--until", *until_text, wall_now_ms());
    TRY_ASSIGN(const auto length, parse_wait_duration(*for_text));
    if (!length)
        return Millis(0);
    if (*length <= Millis(0) || *length > kLongestPause)
        return usage_error(fmt::format("--for {}: must be more than 0 and at most 366d (or "
                                       "forever)",
                                       quote(*for_text)));
    return *length;
}

Result<std::string> checked_reason(const std::string& reason) {
    if (reason.size() > kLongestReason)
        return usage_error(fmt::format("--reason: longer than {} bytes", kLongestReason));
    for (unsigned char c : reason)
        if (c < 0x20 || c == 0x7f)
            return usage_error(
                fmt::format("--reason {}: control characters are not allowed", quote(reason)));
    return reason;
}

} // namespace

PauseCommand::PauseCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("pause", "Pause NAME on every host: until it ends, no run or "
                                          "acquire of it starts, whatever its --wait");
    app_->add_option("NAME", names_, "lock names")->required();
    app_->add_option("--for", for_, "how long: a duration (2h, 30m), or forever")
        ->option_text("DURATION");
    app_->add_option("--until", until_, "until a local time: 14:00, 14:00:30, or 2026-12-01 14:00")
        ->option_text("TIME");
    app_->add_option("--reason", reason_, "why, shown to skipped runs, status and check")
        ->option_text("REASON");
    app_->footer(exit_status_help(HelpPage::pause));
}

Result<PauseCommand::Plan> PauseCommand::plan(const GlobalOptions& globals) const {
    Plan p;
    p.options.names = lock::distinct(names_);
    TRY_ASSIGN(p.options.duration, pause_length(for_, until_));
    TRY_ASSIGN(p.options.reason, checked_reason(reason_));
    TRY_ASSIGN(p.target, target_for(globals, p.options.names));
    return p;
}

Result<int> PauseCommand::run(const Plan& p) {
    return app::pause(*store_for(p.target), p.target, p.options);
}

ResumeCommand::ResumeCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("resume", "End the pause of NAME: runs may take it again");
    app_->add_option("NAME", names_, "lock names")->required();
    app_->footer(exit_status_help(HelpPage::resume));
}

Result<ResumeCommand::Plan> ResumeCommand::plan(const GlobalOptions& globals) const {
    Plan p{{}, lock::distinct(names_)};
    TRY_ASSIGN(p.target, target_for(globals, p.names));
    return p;
}

Result<int> ResumeCommand::run(const Plan& p) {
    return app::resume(*store_for(p.target), p.target, p.names);
}

} // namespace dlock::cli
