#pragma once

#include "app/run.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace dlock::cli {

// Options every subcommand shares, as typed; resolve() applies the environment and defaults.
struct GlobalOptions {
    std::string redis_url;     // --redis, else $DLOCK_REDIS_URL, $REDIS_URL, default
    std::string password_file; // --password-file, else $DLOCK_REDIS_PASSWORD, else the URL's
    std::string prefix;        // --prefix, else $DLOCK_PREFIX, else "dlock"
    std::string connect_timeout = "2s";
    std::string timeout = "2s";
    int verbose = 0;
    bool quiet = false;

    void add_to(CLI::App& app);
    // Parses and validates everything; usage errors carry exit code 64.
    Result<app::Connection> resolve() const;
    int verbosity() const { return quiet ? -1 : verbose; }

  private:
    // Set when given on the command line, even as an empty string (which is then an error).
    CLI::Option* redis_option_ = nullptr;
    CLI::Option* password_file_option_ = nullptr;
    CLI::Option* prefix_option_ = nullptr;
};

} // namespace dlock::cli
