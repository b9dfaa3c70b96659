#include "cli/history_command.hpp"

#include "app/history.hpp"
#include "cli/command_support.hpp"
#include "util/text.hpp"

#include <charconv>
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

int HistoryCommand::execute(const GlobalOptions& globals) {
    app::HistoryOptions options{name_, app::kDefaultHistoryCount, json_};
    if (count_option_->count() > 0) {
        auto [end, ec] =
            std::from_chars(count_.data(), count_.data() + count_.size(), options.count);
        if (ec != std::errc() || end != count_.data() + count_.size() || options.count < 1 ||
            options.count > app::kMaxHistoryCount)
            return report(Error{exit_code::usage,
                                fmt::format("-n: COUNT must be a number from 1 to {}, not {}",
                                            app::kMaxHistoryCount, quote(count_))});
    }
    auto connection = connection_for(globals, {name_});
    if (!connection)
        return report(connection.error());
    return app::history(*connection, options);
}

} // namespace dlock::cli
