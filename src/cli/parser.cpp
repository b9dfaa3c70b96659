#include "cli/parser.hpp"

#include "cli/bench_command.hpp"
#include "cli/config_command.hpp"
#include "cli/history_command.hpp"
#include "cli/latch_command.hpp"
#include "cli/release_command.hpp"
#include "cli/run_command.hpp"
#include "cli/sem_command.hpp"
#include "cli/status_command.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"

#include <algorithm>

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

template <typename Command>
class Adapter final : public Subcommand {
  public:
    explicit Adapter(CLI::App& parent) : command_(parent) {}
    CLI::App* app() const override { return command_.app(); }
    int execute(const GlobalOptions& globals, const std::vector<std::string>& command) override {
        if constexpr (requires { command_.execute(globals, command); }) {
            return command_.execute(globals, command);
        } else {
            if (!command.empty()) {
                log::error("unexpected '--' (only run takes a command)");
                return exit_code::usage;
            }
            return command_.execute(globals);
        }
    }

  private:
    Command command_;
};

struct Entry {
    std::string_view name;
    std::unique_ptr<Subcommand> (*add)(CLI::App& parent);
};

template <typename Command>
std::unique_ptr<Subcommand> add(CLI::App& parent) {
    return std::make_unique<Adapter<Command>>(parent);
}

// In the order `dlock --help` lists them.
constexpr Entry kSubcommands[] = {
    {"run", add<RunCommand>},         {"bench", add<BenchCommand>},
    {"latch", add<LatchCommand>},     {"status", add<StatusCommand>},
    {"history", add<HistoryCommand>}, {"release", add<ReleaseCommand>},
    {"sem", add<SemCommand>},         {"config", add<ConfigCommand>},
};

} // namespace

Parser::Parser(std::string_view only)
    : app_("dlock: distributed locks on Redis for shell scripts and cron jobs", "dlock") {
    app_.set_version_flag("--version", std::string("dlock ") + DLOCK_VERSION);
    app_.footer(kExitStatus);
    app_.require_subcommand(1);
    globals_.add_to(app_);
    for (const auto& entry : kSubcommands)
        if (only.empty() || only == entry.name)
            subcommands_.push_back(entry.add(app_));
}

std::optional<int> Parser::parse(std::vector<std::string> args, bool quiet) {
    std::reverse(args.begin(), args.end()); // CLI11 parses a reversed vector
    try {
        app_.parse(args);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        if (quiet)
            return e.get_exit_code() == 0 ? 0 : exit_code::usage;
        if (e.get_exit_code() == 0)
            return app_.exit(e);
        log::setup(0);
        log::error("{} (see dlock --help)", e.what());
        return exit_code::usage;
    }
}

Subcommand* Parser::parsed() const {
    for (const auto& subcommand : subcommands_)
        if (subcommand->app()->parsed())
            return subcommand.get();
    return nullptr;
}

std::string_view named_subcommand(const std::vector<std::string>& args) {
    for (const auto& arg : args)
        for (const auto& entry : kSubcommands)
            if (arg == entry.name)
                return entry.name;
    return {};
}

} // namespace dlock::cli
