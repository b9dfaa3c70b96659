#pragma once

#include "util/error.hpp"

#include <string>

namespace dlock::process {

// dlock ships as two builds of the same code. `dlock` is linked statically: without the dynamic
// loader it starts about 1 ms sooner, which is most of what it costs over flock(1). A static
// glibc cannot load shared objects safely, though (util/static_glibc.hpp), so when a run needs
// one (libssl for rediss://, an NSS source other than files and dns) it execs `dlock-dynamic`
// with the same arguments and environment, before it has talked to Redis.
//
// The sibling is looked for beside this executable (a build tree), then in the libexec
// directory relative to it (an installation: /usr/bin/dlock, /usr/libexec/dlock/dlock-dynamic).
// Returns only on failure: exit 69, naming `why` and the paths tried.
Error hand_over_to_dynamic_build(char* const* argv, const std::string& why);

} // namespace dlock::process
