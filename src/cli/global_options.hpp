#pragma once

#include "app/target.hpp"
#include "config/settings.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// Options every subcommand shares, as typed. load() puts them on top of the environment and the
// config files (see config/settings.hpp for the order); resolve() turns the result into the
// target of the subcommand: the Redis server and the key prefix.
struct GlobalOptions {
    std::vector<std::string> redis_urls;
    std::string password_file;
    std::string prefix;
    std::string connect_timeout;
    std::string timeout;
    std::string log_format;
    std::string sentinel_user;
    std::string sentinel_password_file;
    std::string tls_ca_file;
    std::string tls_ca_dir;
    std::string tls_cert;
    std::string tls_key;
    std::string tls_server_name;
    bool tls_insecure = false;
    std::string min_replicas;
    std::string replica_timeout;
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
    // Where --redis points, as the URLs say (no credentials from files, no shared options).
    Result<std::vector<redis::Deployment>> deployments() const;
    const config::Settings& settings() const { return settings_; }

  private:
    // A secret from `key`-file (read now) or `key` itself; nullopt when neither is set.
    Result<std::optional<std::string>> secret(std::string_view key) const;
    // The options given on the command line, even as an empty string (which is then an error).
    std::vector<config::FlagValue> given() const;

    // Options that take a value, with the key each sets.
    struct Valued {
        CLI::Option* option;
        const char* key;
        const std::string* value;
    };
    std::vector<Valued> valued_;
    CLI::Option* redis_option_ = nullptr;
    config::Settings settings_;
};

} // namespace dlock::cli
