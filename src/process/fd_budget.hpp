#pragma once

#include "util/error.hpp"

namespace dlock::app {

// The file descriptors a `dlock run` opens besides those already open, whatever its number of
// names: its Redis connection and the watchdog's, the supervisor's signalfd and eventfd, the
// guardian's pipe (two ends) and pidfd, a syslog socket, and headroom for name resolution.
inline constexpr int kRunFds = 2 + 2 + 3 + 1 + 3;

// The same for a `dlock acquire` and its keeper: the Redis connection and the watchdog's, the
// owner's pidfd, the keeper's socket, signalfd and eventfd, /dev/null and the keeper's reserve
// descriptor, a release's connection, a syslog socket, the guardian's pipe and pidfd, the pipe
// the keeper says it is ready on, and headroom for name resolution.
inline constexpr int kAcquireFds = 2 + 1 + 3 + 2 + 1 + 1 + 2 + 2 + 3;

// Checks that `needed` more file descriptors can be opened under RLIMIT_NOFILE. Otherwise a
// usage error (64) naming the limit: a run that would fail half-way (its watchdog unable to
// reconnect, the command stopped as if its lease were lost) never starts, and nothing is written
// to Redis.
Result<void> check_fd_budget(int needed = kRunFds);

} // namespace dlock::app
