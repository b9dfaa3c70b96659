#include "cli/acquire_command.hpp"

#include "cli/command_support.hpp"
#include "cli/numbers.hpp"

#include <limits>

namespace dlock::cli {

AcquireCommand::AcquireCommand(CLI::App& parent, const std::vector<std::string>* words)
    : run_(parent, RunCommand::Kind::acquire, words) {
    CLI::App& app = *run_.app();
    app.add_option("--pid", pid_,
                   "the owner: the lock is kept until this process exits (default: the process "
                   "that started dlock, i.e. the script's shell)")
        ->option_text("PID");
    app.add_option("--format", format_,
                   "sh: export lines for eval (the default); json: one JSON object")
        ->option_text("sh|json");
}

Result<AcquireCommand::Plan> AcquireCommand::plan(const GlobalOptions& globals,
                                                  const std::vector<std::string>& command) const {
    Plan p;
    TRY_ASSIGN(p.options.run, parse_run_options(run_.args(command)));
    if (run_.app()->count("--pid") > 0) {
        TRY_ASSIGN(const int64_t pid,
                   parse_integer(pid_, 1, std::numeric_limits<pid_t>::max(), "--pid"));
        p.options.owner = static_cast<pid_t>(pid);
    }
    if (format_ == "json")
        p.options.format = app::HoldFormat::json;
    else if (format_ != "sh")
        return usage_error(fmt::format("--format {}: must be sh or json", format_));
    TRY_ASSIGN(p.target, globals.resolve());
    return p;
}

Result<void> AcquireCommand::check(const GlobalOptions& globals,
                                   const std::vector<std::string>& command) const {
    return plan(globals, command).map([](const Plan&) {});
}

Result<int> AcquireCommand::execute(const GlobalOptions& globals,
                                    const std::vector<std::string>& command) {
    TRY_ASSIGN(auto ready, plan(globals, command));
    return app::acquire(*store_for(ready.target), ready.target, std::move(ready.options));
}

} // namespace dlock::cli
