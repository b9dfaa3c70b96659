#pragma once

#include "app/run.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dlock::cli {

// The subcommands that take run's options.
enum class RunKind : uint8_t {
    run = 1,       // dlock run
    semaphore = 2, // dlock sem run: one NAME, -p required, no -s/-x or --min-hold
    acquire = 4,   // dlock acquire: no command
};

// Which of them take an option: RunKind values or'ed.
using RunKinds = uint8_t;
inline constexpr RunKinds kEveryRunKind = 1 | 2 | 4;
inline constexpr RunKinds kLockKinds = 1 | 4; // a lock, not a semaphore

// One option of `run`, `sem run` and `acquire`: everything the parser, --help, the completions
// and the man-page check know of it. Adding a run option is a row of cli/run_option_table.cpp
// (and a field of app::RunOptions); tests/unit/cli/run_option_table_test.cpp covers every row.
struct RunOptionRow {
    std::string_view flag{};    // CLI11 names: "-w,--wait"
    std::string_view metavar{}; // "" for a flag that takes no value
    // The --help text; "{lock}", "{busy}" and the other names of fill_help are replaced.
    std::string_view help{};
    std::string_view semaphore_help{}; // `sem run`'s text, when it differs
    std::string_view acquire_help{};   // `acquire`'s text, when it differs
    RunKinds takes = kEveryRunKind;
    bool required = false; // CLI11 requires it (`sem run -p`)
    // More names of a flag, accepted and not listed in --help: flock(1)'s spellings ("-e").
    std::string_view aliases{};
    std::string_view excludes{}; // the long name of an option it cannot be given with
    // Checks the value given (a flag's is "") and sets it in the options, which hold what the
    // rows above it set; a usage error naming the option otherwise. nullptr: read as a whole
    // elsewhere (the command, the --once-per group) or nothing to set (-n, -x).
    Result<void> (*apply)(std::string_view value, app::RunOptions& options) = nullptr;

    // "--wait" for "-w,--wait": the name the value is looked up by.
    std::string_view long_name() const;
    bool taken_by(RunKind kind) const { return (takes & static_cast<RunKinds>(kind)) != 0; }
    // The help of `kind`'s page, its names filled in.
    std::string help_for(RunKind kind) const;
};

// Every run option, in the order --help lists them and the parser checks them.
std::span<const RunOptionRow> run_option_table();

// The limits a run's values are checked against.
inline constexpr Millis kMinTtl{1000};
inline constexpr Millis kMaxTtl{24 * 3600 * 1000}; // also the most --min-hold may be
inline constexpr int64_t kMaxPermits = 1'000'000;

} // namespace dlock::cli
