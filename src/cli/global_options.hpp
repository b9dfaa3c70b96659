#pragma once

#include "app/target.hpp"
#include "config/settings.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// Options every subcommand shares, as typed. load() puts them on top of the environment and the
// config files (see config/settings.hpp for the order); resolve() turns the result into the
// target of the subcommand: the Redis server and the key prefix.
struct GlobalOptions {
    std::string redis_url;
    std::string password_file;
    std::string prefix;
    std::string connect_timeout;
    std::string timeout;
    std::string log_format;
    bool syslog = false;
    bool no_syslog = false;
    int verbose = 0;
    bool quiet = false;

    void add_to(CLI::App& app);
    // Reads the config files and the environment, checks every value and sets up logging.
    // Usage errors (bad values, unknown keys, unreadable files) carry exit code 64.
    Result<void> load();
    // The target from the loaded settings; reads the password file.
    Result<app::Target> resolve() const;
    const config::Settings& settings() const { return settings_; }

  private:
    // The options given on the command line, even as an empty string (which is then an error).
    std::vector<config::FlagValue> given() const;

    CLI::Option* redis_option_ = nullptr;
    CLI::Option* password_file_option_ = nullptr;
    CLI::Option* prefix_option_ = nullptr;
    CLI::Option* connect_timeout_option_ = nullptr;
    CLI::Option* timeout_option_ = nullptr;
    CLI::Option* log_format_option_ = nullptr;
    config::Settings settings_;
};

} // namespace dlock::cli
