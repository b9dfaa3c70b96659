#pragma once

#include "app/target.hpp"
#include "lock/compat.hpp"
#include "lock/lease_clock.hpp"
#include "lock/slots.hpp"
#include "lock/store.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"
#include "util/exit_codes.hpp"

#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlock::app {

struct RunOptions {
    std::vector<std::string> names;        // distinct, in command-line order; all or none are taken
    std::vector<std::string> argv;         // what to exec (already wrapped in /bin/sh -c for -c)
    std::string command_line;              // what to show: the user's command, shortened
    std::optional<Millis> wait{Millis(0)}; // 0: do not wait; nullopt: wait forever
    int conflict_exit_code = exit_code::busy;
    Millis ttl = lock::kDefaultTtl;
    Millis kill_after = lock::default_kill_after(lock::kDefaultTtl);
    int lost_signal = SIGTERM;
    bool shared = false; // many shared holders may run together; an exclusive one runs alone
    Millis min_hold{0};  // keep the (exclusive) lease at least this long after acquisition
    int64_t permits = 0; // > 0: hold one of this many permits of semaphore NAME (dlock sem run)
    // Stop the command this long after it started (lost_signal, then KILL after kill_after).
    std::optional<Millis> max_run;
    // --once-per: run only if no run of the server clock's current slot succeeded (one name,
    // exclusive); a skip exits with `slot_done_exit_code` (0, or -E when given).
    std::optional<lock::SlotRule> once_per;
    int slot_done_exit_code = exit_code::ok;
    // --compat FORMAT: the lease is taken in another library's format, NAME being that side's
    // Redis key (one name, exclusive; see lock/compat.hpp).
    std::optional<lock::CompatFormat> compat;
    // --ephemeral: once its leases are released, a free name is forgotten (app/forget.hpp): no
    // history, run counters, fencing counter or slot is left behind.
    bool ephemeral = false;
};

// `dlock run`: take the lease on every name (or none), run the command while watchdogs renew
// them, release. Returns the exit status (see util/exit_codes.hpp): the command's own, or one
// that app/run_report.hpp has explained on stderr (the lock not obtained, the lease lost). An
// Error is a failure of dlock before the command could run (not yet reported), after which no
// lease is left held. `store` is where the leases live; what it does not offer is refused.
Result<int> run(lock::Store& store, const Target& target, const RunOptions& options);

} // namespace dlock::app
