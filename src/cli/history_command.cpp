#include "cli/history_command.hpp"

#include "app/history.hpp"
#include "cli/command_support.hpp"
#include "cli/numbers.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

constexpr const char* kHistoryExitStatus = R"(
Exit status:
  0        entries were shown
  1        NAME has no history (never used, or unused for 30 days)
  64       usage error
  69       Redis unreachable, or authentication failed
  70       internal error)";

} // namespace

HistoryCommand::HistoryCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "history", "Show what happened to NAME: acquisitions, releases, skips, lost leases, "
                   "forced releases (newest first)");
    app_->add_option("NAME", name_, "lock name")->required();
    count_option_ =
        app_->add_option("-n,--count", count_,
                         fmt::format("show the newest COUNT entries (default {}, at most {})",
                                     app::kDefaultHistoryCount, app::kMaxHistoryCount))
            ->option_text("COUNT");
    app_->add_flag("--json", json_, "print a JSON array instead of a table");
    app_->footer(kHistoryExitStatus);
}

Result<app::Target> HistoryCommand::target(const GlobalOptions& globals, int64_t& count) const {
    count = app::kDefaultHistoryCount;
    if (count_option_->count() > 0) {
        TRY_ASSIGN(count, parse_integer(count_, 1, app::kMaxHistoryCount, "--count"));
    }
    return target_for(globals, {name_});
}

Result<void> HistoryCommand::check(const GlobalOptions& globals) const {
    int64_t count = 0;
    return target(globals, count).map([](const app::Target&) {});
}

int HistoryCommand::execute(const GlobalOptions& globals) {
    app::HistoryOptions options{name_, app::kDefaultHistoryCount, json_};
    int64_t count = 0;
    auto ready = target(globals, count);
    if (!ready)
        return report(ready.error());
    options.count = static_cast<decltype(options.count)>(count);
    return app::history(*ready, options);
}

} // namespace dlock::cli
