#include "process/exit_status.hpp"

#include "util/exit_codes.hpp"

#include <sys/wait.h>

namespace dlock::process {

int exit_code_from_wait_status(int wait_status) {
    if (WIFEXITED(wait_status))
        return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status))
        return exit_code::signal_base + WTERMSIG(wait_status);
    return exit_code::internal;
}

} // namespace dlock::process
