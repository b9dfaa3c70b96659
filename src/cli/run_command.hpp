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
// command'`. With Kind::semaphore, the same options plus -p N under `dlock sem run` (one NAME,
// no -s/-x).
class RunCommand {
  public:
    // acquire: `dlock acquire`, the options of run without -c (cli/acquire_command.hpp).
    enum class Kind { lock, semaphore, acquire };
    explicit RunCommand(CLI::App& parent, Kind kind = Kind::lock,
                        const std::vector<std::string>* words = nullptr);
    // `dlock run` for a parser of one command line, `words`: only the options these may use
    // are registered, and the required ones (see GlobalOptions::add_to).
    RunCommand(CLI::App& parent, const std::vector<std::string>* words)
        : RunCommand(parent, Kind::lock, words) {}
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
    Result<Plan> plan(const GlobalOptions& globals, const std::vector<std::string>& command) const;
    void add_acquire(CLI::App& parent);
    void add_names();
    void add_wait_options();
    void add_holder_options();
    void add_lease_options();
    void add_command_options();
    void add_once_per_options();
    bool wanted(std::string_view names) const;

    CLI::App* app_;
    const std::vector<std::string>* words_; // null: every option
    bool semaphore_ = false;
    bool acquire_ = false;
    std::vector<std::string> names_; // run
    std::string semaphore_name_;     // sem run
    bool no_wait_ = false;
    bool shared_ = false;
    bool exclusive_ = false;
    std::string permits_; // sem run -p
    // The options that take a value, with the value given last (even an empty string, which is
    // then an error).
    struct Valued {
        CLI::Option* option = nullptr;
        std::string value;

        std::optional<std::string> given() const;
    };
    Valued wait_, timeout_, conflict_exit_code_, ttl_, kill_after_, lost_signal_, shell_command_,
        min_hold_, max_run_;
    // --once-per (run only)
    Valued once_per_, offset_, tolerance_;
    bool once_per_strict_ = false;
    Valued compat_; // --compat (cli/compat_option.hpp)
};

} // namespace dlock::cli
