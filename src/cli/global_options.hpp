#pragma once

#include "app/target.hpp"
#include "config/settings.hpp"

#include <CLI/CLI.hpp>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// Whether command-line `words` may use one of the flags `names` ("-v,--verbose"): a word that is
// a long name, alone or with "=VALUE", or a cluster of short flags holding its letter ("-vv",
// "-qv"). Saying yes too often only costs time.
bool may_use(std::string_view names, const std::vector<std::string>& words);

// Options every subcommand shares, one per row of global_option_table(). load() puts them on top
// of the environment and the config files (see config/settings.hpp for the order); resolve()
// turns the result into the target of the subcommand: the Redis server and the key prefix.
class GlobalOptions {
  public:
    // Registers the flag(s) of every row, in table order (see config::Option::help_after).
    // With `words`, only those of the rows the words may use: a parser for one command line
    // that is replaced by the full one when it fails (CLI11's cost is per option registered).
    void add_to(CLI::App& app, const std::vector<std::string>* words = nullptr);
    // Reads the config files and the environment, checks every value and sets up logging.
    // Usage errors (bad values, unknown keys, unreadable files) carry exit code 64.
    Result<void> load();
    // The target from the loaded settings; reads the password file.
    Result<app::Target> resolve() const;
    // Where --redis points, as the URLs say (no credentials from files, no shared options).
    Result<std::vector<redis::Deployment>> deployments() const;
    const config::Settings& settings() const { return settings_; }
    // The options given on the command line, even as an empty string (which is then an error).
    std::vector<config::FlagValue> given() const;

  private:
    // A secret and where it came from, for messages: "DLOCK_REDIS_PASSWORD", "password in
    // /etc/dlock.conf:3", "/run/pw (password-file in /etc/dlock.conf:3)".
    struct Secret {
        std::string value;
        std::string from;
    };
    // A secret from `key`-file (read now) or `key` itself; nullopt when neither is set.
    Result<std::optional<Secret>> secret(std::string_view key) const;
    void add_row(CLI::App& app, const config::Option& row);

    // What CLI11 filled in for one row.
    struct Given {
        const config::Option* row = nullptr;
        CLI::Option* on = nullptr;
        CLI::Option* off = nullptr;
        std::string value{};               // Form::value
        std::vector<std::string> values{}; // Form::values
        bool on_flag = false;              // Form::toggle
        bool off_flag = false;             // Form::toggle, Form::verbosity
        int count = 0;                     // Form::verbosity
    };
    std::deque<Given> given_; // a deque: CLI11 keeps pointers to the members
    config::Settings settings_;
};

} // namespace dlock::cli
