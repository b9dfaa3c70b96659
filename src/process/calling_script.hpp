#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::process {

// The script that ran this dlock: the process `dlock acquire` keeps its lock for when no --pid
// is given (`Output::captured`), and the one `dlock release` must be run from to release a hold
// it inherited (`Output::passed_on`).
//
// For acquire, whose output is meant for the script, when dlock's stdout is a pipe that a
// process above it reads (a command substitution:
// `out=$(dlock acquire x)`, `eval "$(dlock acquire x)"`), that reader is the script, whatever
// runs between them: the subshell a shell forks for `$(dlock acquire x 2>/dev/null)` or an ERR
// trap, a wrapper such as `$(timeout 10 dlock acquire x)`. In flock's subshell idiom,
// `( out=$(dlock acquire x) ...; work )`, the reader is the `( )` subshell: the hold is its own.
// Otherwise, and always for release (whose output may go to whatever captures the script's own,
// `log=$(./nightly.sh)`), the script is dlock's parent, or the first process above it that is
// not a wrapper
// that ran dlock (`timeout 10 dlock release`, `sudo -u u dlock acquire x`, `env`, `nice`...:
// its command line ends with dlock's, or it is a known wrapper program). A process that merely
// writes to the same pipe as dlock (cron's, a `| tee`'s) is never taken for a helper: under cron
// the script's own `sh -c` does. The walk stays in dlock's session, goes up at most a few dozen
// processes, and stops at pid 1 or at a process it cannot read.
enum class Output { captured, passed_on };
pid_t calling_script(Output output);

// Whether `pid` is an interactive shell: a shell (sh, bash, zsh, ...) reading commands from a
// terminal, given neither a script nor -c. A lock tied to it would last the login session.
bool interactive_shell(pid_t pid);

// Whether this process runs in a PID namespace other than the host's (a container), where pid 1
// is the container's first process, which exits like any other, not the host's init.
bool in_container_pid_namespace();

// The file NAME of /proc/PID ("" when unreadable; cut at 64 KiB).
std::string proc_file(pid_t pid, const char* name);
// Its command line, one word per argument (none when unreadable).
std::vector<std::string> proc_words(pid_t pid);

} // namespace dlock::process
