#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>

namespace dlock {

// Parses "TERM", "SIGTERM", "term" or "15" into a signal number.
Result<int> parse_signal(std::string_view text);

// "TERM" for SIGTERM; "signal N" for unknown numbers.
std::string signal_name(int signo);

// Ends the process by `signo` with its default action, as a process that did not catch it
// would end (without a core dump for QUIT): a shell stops its loop when a foreground job dies
// of SIGINT, but not when it exits with 130. `whole_group` sends it to our process group (us
// included), as the terminal does with Ctrl-C. Returns 128+signo should the process survive.
int die_of_signal(int signo, bool whole_group = false);

// What die_of_signal does first, since a process ending by a signal runs no destructor: one
// function per process (process/guardian.cpp reaps its guardian, which would otherwise be left
// to an init that may never reap it).
void set_before_dying(void (*hook)());

} // namespace dlock
