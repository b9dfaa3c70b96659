#include "cli/run_command.hpp"

#include "cli/command_support.hpp"
#include "cli/compat_option.hpp"
#include "cli/exit_help.hpp"
#include "cli/help_formatter.hpp"

namespace dlock::cli {
namespace {

// The text between the options of `run --help` (or `sem run --help`) and its exit statuses.
std::string run_examples(bool semaphore) {
    if (semaphore)
        return help_section("Examples", {{"dlock sem run -p 4 encoders -- ./encode.sh",
                                          "at most 4 encoders at once, fleet-wide"},
                                         {"dlock sem run -p 4 -w 10m encoders -- ./encode.sh",
                                          "wait up to 10m for a permit"}});
    return "\nSeveral names are taken all or none, in a fixed order (no deadlock).\n" +
           help_section(
               "Examples",
               {{"dlock run nightly-job -- ./backup.sh", "skip (exit 75) if nightly-job is held"},
                {"dlock run -w 5m db -c 'pg_dump app >app.sql'", "wait up to 5m; a shell command"},
                {"dlock run --once-per 1d report -- ./report.sh", "once a day, whichever host"},
                {"dlock run --max-run 2h sync -- ./sync.sh", "stop it after 2 hours (exit 124)"}});
}

} // namespace

RunCommand::RunCommand(CLI::App& parent, RunKind kind, const std::vector<std::string>* words)
    : kind_(kind) {
    add_app(parent);
    add_names();
    add_options(words);
}

// The subcommand, its usage lines and the text after its options.
void RunCommand::add_app(CLI::App& parent) {
    if (kind_ == RunKind::acquire) {
        app_ = parent.add_subcommand("acquire", "Take a lock for the rest of a shell script: a "
                                                "keeper process renews it until the script exits");
        HelpFormatter::set_usage(*app_, {"dlock acquire [OPTIONS] NAME..."}, [] {
            return "\nIn a script:  out=$(dlock acquire NAME) || exit 0; eval \"$out\"; ...; dlock "
                   "release\nThe keeper releases the lock when the owner (by default the process "
                   "that ran dlock:\nthe script's shell; --pid to name another) exits.\n" +
                   exit_status_help(HelpPage::acquire);
        });
        return;
    }
    const bool semaphore = kind_ == RunKind::semaphore;
    const std::string usage =
        semaphore ? "dlock sem run [OPTIONS] -p N NAME" : "dlock run [OPTIONS] NAME...";
    app_ =
        parent.add_subcommand("run", semaphore ? "Run a command while holding one of N permits"
                                               : "Run a command while holding a lock (or several)");
    HelpFormatter::set_usage(
        *app_, {usage + " -- COMMAND [ARGS...]", usage + " -c STRING"}, [semaphore] {
            return run_examples(semaphore) +
                   exit_status_help(semaphore ? HelpPage::sem_run : HelpPage::run);
        });
}

void RunCommand::add_names() {
    if (kind_ == RunKind::semaphore) // one NAME: a second one is an unexpected argument
        app_->add_option("NAME", semaphore_name_,
                         "semaphore name: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = -")
            ->required();
    else
        app_->add_option("NAME", names_,
                         "lock names: 1-200 bytes of A-Z a-z 0-9 . _ : / @ + = - each")
            ->required();
}

// The rows this kind takes, in table order (--help's), each bound to a Registered of options_.
// Given `words`, only those the words may name, and the required ones.
void RunCommand::add_options(const std::vector<std::string>* words) {
    const auto table = run_option_table();
    options_.reserve(table.size()); // CLI11 keeps pointers into it
    for (const auto& row : table) {
        if (!row.taken_by(kind_))
            continue;
        if (words != nullptr && !row.required && !may_use(row.flag, *words) &&
            !may_use(row.aliases, *words))
            continue;
        Registered& r = options_.emplace_back(Registered{.row = &row});
        const std::string flag(row.flag);
        const std::string help = row.help_for(kind_);
        r.option =
            row.metavar.empty()
                ? app_->add_flag(flag, r.flag, help)
                : app_->add_option(flag, r.value, help)->option_text(std::string(row.metavar));
        if (row.required)
            r.option->required();
        if (!row.aliases.empty())
            r.alias = app_->add_flag(std::string(row.aliases), r.alias_flag)->group("");
    }
    add_exclusions();
}

// CLI11's exclusions, between the rows' main names; an alias given with what its row excludes
// is refused by parse_run_options.
void RunCommand::add_exclusions() {
    for (const auto& r : options_)
        for (const auto& other : options_)
            if (!r.row->excludes.empty() && other.row->long_name() == r.row->excludes)
                r.option->excludes(other.option);
}

std::string RunCommand::name_after_shell_command() const {
    size_t names_seen = 0;
    bool after_command = false;
    for (const CLI::Option* option : app_->parse_order()) {
        if (option->get_name() == "--command")
            after_command = names_seen > 0;
        else if (option->get_positional() && after_command && names_seen < names_.size())
            return names_[names_seen];
        names_seen += option->get_positional() ? 1 : 0;
    }
    return {};
}

RunArgs RunCommand::args(const std::vector<std::string>& command) const {
    RunArgs a;
    a.kind = kind_;
    a.names = kind_ == RunKind::semaphore ? std::vector{semaphore_name_} : names_;
    a.command = command;
    for (const auto& r : options_)
        if (r.given())
            a.set(r.row->long_name(), r.row->metavar.empty() ? std::string() : r.value);
    if (kind_ == RunKind::run)
        a.name_after_shell_command = name_after_shell_command();
    return a;
}

Result<RunCommand::Plan> RunCommand::plan(const GlobalOptions& globals,
                                          const std::vector<std::string>& command) const {
    TRY_ASSIGN(auto target, globals.resolve());
    TRY_ASSIGN(auto run_options, parse_run_options(args(command)));
    TRY(check_compat_target(run_options, target));
    TRY(check_reply_timeout(run_options.ttl, target, globals.settings().get("redis-timeout")));
    return Plan{std::move(target), std::move(run_options)};
}

Result<void> RunCommand::check(const GlobalOptions& globals,
                               const std::vector<std::string>& command) const {
    return plan(globals, command).map([](const Plan&) {});
}

Result<int> RunCommand::execute(const GlobalOptions& globals,
                                const std::vector<std::string>& command) {
    TRY_ASSIGN(const auto ready, plan(globals, command));
    return app::run(*store_for(ready.target), ready.target, ready.options);
}

} // namespace dlock::cli
