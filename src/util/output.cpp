#include "util/output.hpp"

#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/write_fully.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <unistd.h>

namespace dlock::out {
namespace {

// Big enough that a table is one write(2), small enough to stream `status --names` of many.
constexpr size_t kFlushAt = 64 * 1024;

std::string buffer;
int first_error = 0; // errno of the first failed write; 0 while all went well

void write_buffer() {
    if (first_error == 0)
        first_error = write_fully(STDOUT_FILENO, buffer);
    buffer.clear();
}

// The default action of SIGPIPE, which dlock ignores for its Redis socket: end quietly.
[[noreturn]] void die_of_sigpipe() {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    if (std::signal(SIGPIPE, SIG_DFL) != SIG_ERR &&
        sigprocmask(SIG_UNBLOCK, &pipe_only, nullptr) == 0)
        std::raise(SIGPIPE);
    _exit(exit_code::signal_base + SIGPIPE); // not reached unless SIGPIPE cannot kill us
}

} // namespace

void write(std::string_view text) {
    if (first_error != 0)
        return;
    buffer.append(text);
    if (buffer.size() >= kFlushAt)
        write_buffer();
}

bool flush() {
    write_buffer();
    return first_error == 0;
}

int finish(int status) {
    if (flush())
        return status;
    if (first_error == EPIPE)
        die_of_sigpipe();
    log::error("cannot write to stdout: {}", std::strerror(first_error));
    return exit_code::internal;
}

} // namespace dlock::out
