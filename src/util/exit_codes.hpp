#pragma once

#include "util/fault.hpp"

#include <array>
#include <cstddef>

// Every exit status dlock can return, in one place (documented in docs/reference.md, man page and
// --help).
namespace dlock::exit_code {

inline constexpr int ok = 0;
// `dlock check` alone answers in the monitoring plugins' statuses (Nagios, Icinga, Sensu, Zabbix
// read them as they are), a Redis failure included: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
inline constexpr int check_ok = 0;
inline constexpr int check_warning = 1;
inline constexpr int check_critical = 2;
inline constexpr int check_unknown = 3;
inline constexpr int nothing = 1; // status: nothing held; history: none; release --force: free
inline constexpr int usage = 64;  // EX_USAGE: bad option, name, duration or URL
// EX_NOINPUT: no such latch (never created, or its TTL ran out; also when it expires during
// `latch wait`, which says so).
inline constexpr int no_such_latch = 66;
inline constexpr int unavailable = 69; // EX_UNAVAILABLE: Redis unreachable or auth failed
inline constexpr int internal = 70;    // EX_SOFTWARE: unexpected reply, script error, bug
// EX_CANTCREAT: `metrics --output FILE` could not be written (no such directory, permissions,
// a full disk); the old FILE is kept.
inline constexpr int cannot_create = 73;
inline constexpr int busy = 75;       // EX_TEMPFAIL: lock not obtained (default of -E)
inline constexpr int lease_lost = 76; // lease lost while running; the command was stopped
// The command ran past --max-run and was stopped (timeout(1)'s status).
inline constexpr int timed_out = 124;
inline constexpr int not_executable = 126;
inline constexpr int not_found = 127;
inline constexpr int signal_base = 128; // 128+N: the command died of signal N

// The exit status of a failure, chosen here alone: cli/main.cpp for the Error that ends dlock,
// app/run.cpp for the history of a command that could not be started. In Fault's order.
inline constexpr std::array kOfFault{usage,      no_such_latch,  unavailable, internal,     busy,
                                     lease_lost, not_executable, not_found,   cannot_create};
static_assert(kOfFault.size() == static_cast<size_t>(Fault::cannot_create) + 1);

constexpr int of(Fault fault) {
    return kOfFault[static_cast<size_t>(fault)];
}

} // namespace dlock::exit_code
