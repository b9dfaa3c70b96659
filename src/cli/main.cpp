#include "cli/main.hpp"

#include "cli/bench_command.hpp"
#include "cli/config_command.hpp"
#include "cli/global_options.hpp"
#include "cli/history_command.hpp"
#include "cli/latch_command.hpp"
#include "cli/release_command.hpp"
#include "cli/run_command.hpp"
#include "cli/sem_command.hpp"
#include "cli/status_command.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

namespace dlock::cli {
namespace {

constexpr const char* kExitStatus = R"(
Exit status:
  N        the command's own exit status; 128+N if it died of signal N
  75       lock not obtained: held elsewhere, or --wait timed out (change with -E)
  76       lease lost while the command ran; the command was stopped
  64       usage error (bad option, name, duration, URL or config file); nothing was changed in Redis
  69       Redis unreachable, or authentication failed
  70       internal error
  126      command found but not executable
  127      command not found
  1        status: nothing held; history: none; release --force: the lock was not held)";

} // namespace

int main(int argc, char** argv) {
    // hiredis writes to its socket with write(2): a dropped connection must be an error
    // reply, not a fatal SIGPIPE. The command gets SIGPIPE back to default before exec.
    std::signal(SIGPIPE, SIG_IGN);

    // Everything after the first "--" is the command, verbatim; CLI11 sees what precedes it.
    std::vector<std::string> args, command;
    bool in_command = false;
    for (int i = 1; i < argc; ++i) {
        if (!in_command && std::strcmp(argv[i], "--") == 0)
            in_command = true;
        else
            (in_command ? command : args).emplace_back(argv[i]);
    }

    CLI::App app("dlock: distributed locks on Redis for shell scripts and cron jobs", "dlock");
    app.set_version_flag("--version", std::string("dlock ") + DLOCK_VERSION);
    app.footer(kExitStatus);
    app.require_subcommand(1);
    GlobalOptions globals;
    globals.add_to(app);
    RunCommand run(app);
    BenchCommand bench(app);
    LatchCommand latch(app);
    StatusCommand status(app);
    HistoryCommand history(app);
    ReleaseCommand release(app);
    SemCommand sem(app);
    ConfigCommand config(app);

    std::reverse(args.begin(), args.end()); // CLI11 parses a reversed vector
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0)
            return app.exit(e);
        log::setup(0);
        log::error("{} (see dlock --help)", e.what());
        return exit_code::usage;
    }
    if (auto loaded = globals.load(); !loaded) {
        log::error("{}", loaded.error().message);
        return loaded.error().exit_code;
    }
    if (run.app()->parsed())
        return run.execute(globals, command);
    if (sem.app()->parsed())
        return sem.execute(globals, command);
    if (!command.empty()) {
        log::error("unexpected '--' (only run takes a command)");
        return exit_code::usage;
    }
    if (latch.app()->parsed())
        return latch.execute(globals);
    if (bench.app()->parsed())
        return bench.execute(globals);
    if (status.app()->parsed())
        return status.execute(globals);
    if (history.app()->parsed())
        return history.execute(globals);
    if (release.app()->parsed())
        return release.execute(globals);
    if (config.app()->parsed())
        return config.execute(globals);
    return exit_code::usage;
}

} // namespace dlock::cli
