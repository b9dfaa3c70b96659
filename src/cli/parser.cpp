#include "cli/parser.hpp"

#include "cli/acquire_command.hpp"
#include "cli/bench_command.hpp"
#include "cli/check_command.hpp"
#include "cli/config_command.hpp"
#include "cli/exit_help.hpp"
#include "cli/forget_command.hpp"
#include "cli/help_formatter.hpp"
#include "cli/history_command.hpp"
#include "cli/latch_command.hpp"
#include "cli/metrics_command.hpp"
#include "cli/parse_errors.hpp"
#include "cli/pause_command.hpp"
#include "cli/release_command.hpp"
#include "cli/run_command.hpp"
#include "cli/sem_command.hpp"
#include "cli/status_command.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

#include <algorithm>
#include <sstream>
#include <type_traits>

namespace dlock::cli {
namespace {

Result<void> no_command(const std::vector<std::string>& command) {
    if (!command.empty())
        return usage_error("unexpected '--' (only run takes a command)");
    return {};
}

template <typename Command>
class Adapter final : public Subcommand {
  public:
    template <typename... Words>
    explicit Adapter(CLI::App& parent, Words... words) : command_(parent, words...) {}
    CLI::App* app() const override { return command_.app(); }
    Result<int> execute(const GlobalOptions& globals,
                        const std::vector<std::string>& command) override {
        if constexpr (requires { command_.execute(globals, command); })
            return command_.execute(globals, command);
        else
            return no_command(command).and_then([&] { return command_.execute(globals); });
    }
    Result<void> check(const GlobalOptions& globals,
                       const std::vector<std::string>& command) const override {
        if constexpr (requires { command_.check(globals, command); })
            return command_.check(globals, command);
        else if constexpr (requires { command_.check(globals); })
            return no_command(command).and_then([&] { return command_.check(globals); });
        else // a command without its own checks: at least the global options
            return no_command(command).and_then(
                [&] { return globals.resolve().map([](const app::Target&) {}); });
    }

  private:
    Command command_;
};

struct Entry {
    std::string_view name;
    std::unique_ptr<Subcommand> (*add)(CLI::App& parent, const std::vector<std::string>* words);
};

// `words`: a parser for that command line alone (see Parser), which a command may use to
// register only the options the line may use.
template <typename Command>
std::unique_ptr<Subcommand> add(CLI::App& parent, const std::vector<std::string>* words) {
    if constexpr (std::is_constructible_v<Command, CLI::App&, const std::vector<std::string>*>)
        return std::make_unique<Adapter<Command>>(parent, words);
    else
        return std::make_unique<Adapter<Command>>(parent);
}

// In the order `dlock --help` lists them.
constexpr Entry kSubcommands[] = {
    {"run", add<RunCommand>},         {"acquire", add<AcquireCommand>},
    {"bench", add<BenchCommand>},     {"latch", add<LatchCommand>},
    {"status", add<StatusCommand>},   {"history", add<HistoryCommand>},
    {"release", add<ReleaseCommand>}, {"sem", add<SemCommand>},
    {"config", add<ConfigCommand>},   {"check", add<CheckCommand>},
    {"metrics", add<MetricsCommand>}, {"forget", add<ForgetCommand>},
    {"pause", add<PauseCommand>},     {"resume", add<ResumeCommand>},
};

// The first thing `dlock --help` shows after its usage line: what a cron job needs.
std::string examples() {
    return help_section(
        "Examples",
        {{"dlock run nightly-job -- ./backup.sh",
          "run it unless nightly-job is held (then exit 75)"},
         {"dlock run -w 5m nightly-job -- ./backup.sh", "wait up to 5 minutes for the lock"},
         {"dlock run -E 1 nightly-job -- ./backup.sh", "as flock -n: exit 1, not 75, when held"},
         {"dlock status", "who holds what: host, pid, since (-l: every column)"}});
}

} // namespace

Parser::Parser(std::string_view only, const std::vector<std::string>* words)
    : app_("dlock: distributed locks on Redis for shell scripts and cron jobs", "dlock") {
    // Flags take no value: CLI11 would convert "--verbose=N" with std::stoll, which throws.
    app_.option_defaults()->disable_flag_override();
    // In the words and case of every other option's help; subcommands copy the help flag.
    app_.set_help_flag("-h,--help", "print this help and exit");
    app_.set_version_flag("--version", kVersionLine, "print the version and exit");
    // Subcommands inherit the formatter; only the top page shows the examples and this footer
    // (each subcommand has its own).
    app_.formatter(std::make_shared<HelpFormatter>(
        examples, &app_, [] { return exit_status_help(HelpPage::dlock); }));
    app_.require_subcommand(1);
    globals_.add_to(app_, only.empty() ? nullptr : words);
    for (const auto& entry : kSubcommands)
        if (only.empty() || only == entry.name)
            subcommands_.push_back(entry.add(app_, only.empty() ? nullptr : words));
}

Result<bool> Parser::parse(std::vector<std::string> args, bool quiet) {
    const std::vector<std::string> given = args;
    std::reverse(args.begin(), args.end()); // CLI11 parses a reversed vector
    try {
        app_.parse(args);
        return true;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) { // help or version, through dlock's checked output
            if (!quiet) {
                std::ostringstream help, unused;
                app_.exit(e, help, unused);
                out::write(help.str());
            }
            return false;
        }
        if (!quiet)
            log::setup(0); // reported with the defaults: no settings were loaded
        return usage_error(describe_parse_error(e, app_, given));
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
