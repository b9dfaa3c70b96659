#pragma once

#include "lock/store.hpp"
#include "util/error.hpp"

#include <functional>

namespace dlock::lock {

// A run's leases whose watchdog may renew over the run's own connection. The watchdog opens a
// connection of its own when the first renewal is due; a server at its client limit refuses it
// while every slot is taken (by waiters of the same name, say), and the lease would be lost for
// want of a connection. The run's connection is idle while its command runs: a renewal whose own
// connection was refused in the way `refused` tells is sent again over it, one call at a time
// (the run's calls and the watchdog's are serialised by a mutex; each is bounded by the store's
// timeouts, so a wait for it is too). Renewals are idempotent: the replay is safe.
Leases lend_connection(Leases leases, std::function<bool(const Error&)> refused);

} // namespace dlock::lock
