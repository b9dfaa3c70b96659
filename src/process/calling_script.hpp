#pragma once

#include <string>
#include <sys/types.h>

namespace dlock::process {

// The script that ran this dlock: the process `dlock acquire` keeps its lock for when no --pid
// is given, and the one `dlock release` must be run from to release a hold it inherited.
//
// That is dlock's parent, unless the parent is only a helper of the script: a subshell the
// shell forked (for a command substitution with a redirection, `set -E` with an ERR trap, a
// pipeline, `( ... )`: the same command line as its own parent, in its process group), or a
// wrapper inside the substitution (`$(timeout 10 dlock acquire x)`, sudo, xargs: its stdout is
// the substitution's pipe, which is dlock's stdout too). The walk goes up past every such
// process, at most a few dozen, and stops at pid 1 or at a process it cannot read.
pid_t calling_script();

// Whether this process runs in a PID namespace other than the host's (a container), where pid 1
// is the container's first process, which exits like any other, not the host's init.
bool in_container_pid_namespace();

// The file NAME of /proc/PID ("" when unreadable; cut at 64 KiB).
std::string proc_file(pid_t pid, const char* name);

} // namespace dlock::process
