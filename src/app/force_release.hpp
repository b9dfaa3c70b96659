#pragma once

#include "app/run.hpp"

#include <string>

namespace dlock::app {

// `dlock release --force NAME`: breaks the lock whoever holds it (exclusive, shared, or kept
// by --min-hold), wakes the waiters and records the forcer in the history. Prints what it
// broke; 0 when it broke something, exit_code::nothing when the lock was free. The holders
// notice at their next renewal and stop their commands (exit 76).
int force_release(const Connection& connection, const std::string& name);

} // namespace dlock::app
