#pragma once

#include "app/run.hpp"
#include "cli/global_options.hpp"
#include "cli/run_options.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock run [options] NAME... -- COMMAND [ARG...]` / `dlock run [options] NAME... -c 'shell
// command'`; with RunKind::semaphore `dlock sem run -p N NAME` (one NAME), with RunKind::acquire
// `dlock acquire NAME...` (no command; its own options are added by cli/acquire_command.cpp).
// The options are the rows of run_option_table() that the kind takes.
class RunCommand {
  public:
    explicit RunCommand(CLI::App& parent, RunKind kind = RunKind::run,
                        const std::vector<std::string>* words = nullptr);
    // `dlock run` for a parser of one command line, `words`: only the options these may use
    // are registered, and the required ones (see GlobalOptions::add_to).
    RunCommand(CLI::App& parent, const std::vector<std::string>* words)
        : RunCommand(parent, RunKind::run, words) {}
    CLI::App* app() const { return app_; }
    // `command` is everything after "--" on the command line.
    Result<int> execute(const GlobalOptions& globals, const std::vector<std::string>& command);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals, const std::vector<std::string>& command) const;
    // What the command line gave, for parse_run_options().
    RunArgs args(const std::vector<std::string>& command) const;

  private:
    struct Plan {
        app::Target target;
        app::RunOptions options;
    };
    // An option registered with CLI11, and where CLI11 puts what was given.
    struct Registered {
        const RunOptionRow* row = nullptr;
        CLI::Option* option = nullptr;
        std::string value{};          // an option's last value
        bool flag = false;            // a flag's
        CLI::Option* alias = nullptr; // the row's aliases, hidden
        bool alias_flag = false;

        bool given() const { return option->count() > 0 || (alias && alias->count() > 0); }
    };
    Result<Plan> plan(const GlobalOptions& globals, const std::vector<std::string>& command) const;
    void add_app(CLI::App& parent);
    void add_names();
    void add_options(const std::vector<std::string>* words);
    void add_exclusions();
    // A NAME given after -c STRING when names came before it too (`run job -c 'cmd' extra`,
    // with sh -c's habit of arguments after the string), or "".
    std::string name_after_shell_command() const;

    CLI::App* app_ = nullptr;
    RunKind kind_;
    std::vector<std::string> names_; // run, acquire
    std::string semaphore_name_;     // sem run
    std::vector<Registered> options_;
};

} // namespace dlock::cli
