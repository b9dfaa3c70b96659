#pragma once

namespace dlock::process {

// Opens /dev/null on any of fds 0, 1 and 2 that is closed. Otherwise the first socket dlock
// opens would take that number: the command's output would go to Redis as commands, or dlock's
// log lines into the connection. Call it before opening anything. False if /dev/null cannot be
// opened (then nothing else is safe to open either).
bool ensure_standard_fds();

} // namespace dlock::process
