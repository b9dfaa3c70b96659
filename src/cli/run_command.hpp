#pragma once

#include "app/run.hpp"
#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// `dlock run [options] NAME... -- COMMAND [ARG...]` / `dlock run [options] NAME... -c 'shell
// command'`. With Kind::semaphore, the same options plus -p N under `dlock sem run` (one NAME,
// no -s/-x).
class RunCommand {
  public:
    enum class Kind { lock, semaphore };
    explicit RunCommand(CLI::App& parent, Kind kind = Kind::lock);
    CLI::App* app() const { return app_; }
    // `command` is everything after "--" on the command line.
    Result<int> execute(const GlobalOptions& globals, const std::vector<std::string>& command);
    // What execute checks before it talks to Redis: the usage errors.
    Result<void> check(const GlobalOptions& globals, const std::vector<std::string>& command) const;

  private:
    struct Plan {
        app::Target target;
        app::RunOptions options;
    };
    Result<Plan> plan(const GlobalOptions& globals, const std::vector<std::string>& command) const;
    Result<app::RunOptions> options(const std::vector<std::string>& command) const;

    CLI::App* app_;
    std::vector<std::string> names_; // run
    std::string semaphore_name_;     // sem run
    bool no_wait_ = false;
    std::string wait_;
    std::string conflict_exit_code_ = "75";
    std::string ttl_ = "30s";
    std::string kill_after_;
    std::string lost_signal_ = "TERM";
    std::string shell_command_;
    bool shared_ = false;
    bool exclusive_ = false;
    std::string min_hold_;
    // Given on the command line (even as an empty string, which is then an error).
    CLI::Option* wait_option_ = nullptr;
    CLI::Option* kill_after_option_ = nullptr;
    CLI::Option* shell_option_ = nullptr;
    bool semaphore_ = false;
    std::string permits_; // sem run -p
    std::string usage_;   // "run" or "sem run", for messages
    CLI::Option* min_hold_option_ = nullptr;
};

} // namespace dlock::cli
