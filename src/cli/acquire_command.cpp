#include "cli/acquire_command.hpp"

#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/numbers.hpp"

#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <string>

namespace dlock::cli {
namespace {

// A --pid that names no live process of its own: a thread (pidfd_open refuses one that does
// not lead its process) or a zombie (it exited: the lock would be released at once).
Result<void> check_owner_pid(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("State:") && line.find('Z') != std::string::npos)
            return usage_error(fmt::format("--pid {}: the process has exited (a zombie its "
                                           "parent has not reaped): there is no owner to keep "
                                           "the lock for",
                                           pid));
        if (line.starts_with("Tgid:")) {
            const std::string tgid = line.substr(line.find_first_not_of(" \t", 5));
            if (tgid != std::to_string(pid))
                return usage_error(fmt::format("--pid {}: a thread of process {}, not a "
                                               "process: give --pid {}",
                                               pid, tgid, tgid));
        }
    }
    return {}; // no such process: Owner::open says so
}

} // namespace

AcquireCommand::AcquireCommand(CLI::App& parent, const std::vector<std::string>* words)
    : run_(parent, RunKind::acquire, words) {
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
        TRY(check_owner_pid(*p.options.owner));
    }
    if (format_ == "json")
        p.options.format = app::HoldFormat::json;
    else if (format_ != "sh")
        return usage_error(fmt::format("--format {}: must be sh or json", format_));
    TRY_ASSIGN(p.target, globals.resolve());
    TRY(check_compat_target(p.options.run, p.target));
    TRY(check_reply_timeout(p.options.run.ttl, p.target, globals.settings().get("redis-timeout")));
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
