#pragma once

namespace dlock {

// What kind of failure an Error is. Layers below the CLI say what went wrong; which exit status
// that is, is decided once, by exit_code::of (util/exit_codes.hpp), at the edge (cli/main.cpp).
enum class Fault {
    bad_input,              // a bad option, name, duration, URL or file
    no_such_latch,          // never created, or its TTL ran out
    unavailable,            // Redis unreachable, refused us, or too few members answered
    internal,               // an unexpected reply, a script error, a bug
    not_obtained,           // a lock, permit or wait that could not be had (bench, latch)
    lease_lost,             // a lease gone or foreign while the command ran
    command_not_executable, // the command exists but cannot be run
    command_not_found,      // the command does not exist
    cannot_create,          // an output file (metrics --output) could not be written
};

} // namespace dlock
