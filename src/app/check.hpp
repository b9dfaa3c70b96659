#pragma once

#include "app/target.hpp"
#include "lock/backend.hpp"
#include "lock/runs.hpp"
#include "lock/store.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::app {

// `dlock check`: a monitoring plugin (Nagios, Icinga, Sensu, Zabbix) on the run counters of
// lock/runs.hpp. Its states are the plugins' exit statuses. Several names: the worst wins, in
// the order of the monitoring plugins' max_state_alt (CRITICAL, WARNING, UNKNOWN, OK), so a
// name that could not be read is never hidden by an OK one.
enum class CheckState { ok, warning, critical, unknown };

// "OK", "WARNING", "CRITICAL", "UNKNOWN".
std::string_view check_state_name(CheckState state);
// The exit status of `state` (exit_code::check_*).
int check_exit_status(CheckState state);

struct CheckLimits {
    Millis max_age{};                 // a last success older than this is CRITICAL
    std::optional<Millis> warn_age{}; // older than this, WARNING (below max_age)
};

// The verdict on one name: its state, its part of the line (starting with the name) and its
// performance data (labels starting with the name).
struct CheckVerdict {
    CheckState state = CheckState::unknown;
    std::string text;
    std::string perfdata;
};

// What was read about one name: its runs, the holder running it now if any, and the server time
// they are relative to.
struct CheckInput {
    std::string name;
    lock::RunStats runs;
    std::optional<lock::HolderInfo> running;
    int64_t now_ms = 0;
    std::optional<lock::Pause> paused; // `dlock pause`: holds the state at WARNING at worst
};

// The verdict on `input` (pure: a function of its arguments alone).
CheckVerdict judge(const CheckInput& input, const CheckLimits& limits);

// The verdict on a name that could not be read (UNKNOWN, "cannot read NAME: <error>").
CheckVerdict unreadable(std::string_view name, std::string_view error);

// The plugin's one line from the verdicts on every name: "STATE - text | perfdata", the worst
// state first and the line's state (an empty list is UNKNOWN).
struct CheckLine {
    CheckState state = CheckState::unknown;
    std::string line; // without the newline
};
CheckLine check_line(std::vector<CheckVerdict> verdicts);

struct CheckOptions {
    std::vector<std::string> names; // at least one, no duplicates
    CheckLimits limits;
};

// Reads the names (read-only, one round trip) and judges them; prints the line. Never an Error:
// whatever stopped the reading is an UNKNOWN line; returns the plugin's exit status.
int check(lock::Store& store, const Target& target, const CheckOptions& options);

} // namespace dlock::app
