#include "cli/run_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/help_formatter.hpp"

namespace dlock::cli {

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
            const std::string exit_help =
                exit_status_help(semaphore ? HelpPage::sem_run : HelpPage::run);
            return semaphore ? exit_help
                             : "\nSeveral names are taken all or none, in a fixed order (no "
                               "deadlock).\n" +
                                   exit_help;
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
        if (words != nullptr && !row.required && !may_use(row.flag, *words))
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
    }
    for (const auto& r : options_)
        if (!r.row->excludes.empty())
            for (const auto& other : options_)
                if (other.row->long_name() == r.row->excludes)
                    r.option->excludes(other.option);
}

RunArgs RunCommand::args(const std::vector<std::string>& command) const {
    RunArgs a;
    a.kind = kind_;
    a.names = kind_ == RunKind::semaphore ? std::vector{semaphore_name_} : names_;
    a.command = command;
    for (const auto& r : options_)
        if (r.option->count() > 0)
            a.set(r.row->long_name(), r.row->metavar.empty() ? std::string() : r.value);
    return a;
}

Result<RunCommand::Plan> RunCommand::plan(const GlobalOptions& globals,
                                          const std::vector<std::string>& command) const {
    TRY_ASSIGN(auto target, globals.resolve());
    TRY_ASSIGN(auto run_options, parse_run_options(args(command)));
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
