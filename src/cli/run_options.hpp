#pragma once

#include "app/run.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// The options of `dlock run` and `dlock sem run` as given on the command line, unparsed; nullopt
// (or empty) where the option was not given.
struct RunArgs {
    bool semaphore = false;                   // `sem run`: one NAME, -p required, no --min-hold
    std::vector<std::string> names;           // NAME...
    std::vector<std::string> command;         // everything after "--"
    std::optional<std::string> shell_command; // -c
    std::optional<std::string> wait;
    std::optional<std::string> timeout; // flock's name for --wait
    std::optional<std::string> conflict_exit_code;
    std::optional<std::string> ttl;
    std::optional<std::string> kill_after;
    std::optional<std::string> lost_signal;
    bool shared = false;
    std::optional<std::string> min_hold;
    std::optional<std::string> max_run;
    std::string permits;  // sem run -p (CLI11 requires it)
    bool acquire = false; // `dlock acquire`: the same options, and no command
    // --once-per PERIOD [--offset D] [--tolerance D] [--once-per-strict] (cli/once_per_options.hpp)
    std::optional<std::string> once_per;
    std::optional<std::string> offset;
    std::optional<std::string> tolerance;
    bool once_per_strict = false;
    std::optional<std::string> compat; // --compat FORMAT (cli/compat_option.hpp)
};

// The limits a run's values are checked against.
inline constexpr Millis kMinTtl{1000};
inline constexpr Millis kMaxTtl{24 * 3600 * 1000}; // also the most --min-hold may be
inline constexpr int64_t kMaxPermits = 1'000'000;

// Checks and converts everything CLI11 does not: names, durations, the command, combinations of
// options. Every failure is a usage error (exit 64) whose message names the option.
Result<app::RunOptions> parse_run_options(const RunArgs& args);

} // namespace dlock::cli
