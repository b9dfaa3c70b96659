#pragma once

namespace dlock::process {

// The command's exit code, or 128+N if it died of signal N (the shell's convention).
int exit_code_from_wait_status(int wait_status);

} // namespace dlock::process
