#include "cli/main.hpp"

#include "cli/command_line.hpp"
#include "process/calling_script.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <csignal>
#include <exception>
#include <new>
#include <string>
#include <unistd.h>
#include <vector>

namespace dlock::cli {
namespace {

// Last resort for an exception that escaped a thread or a noexcept function: one line and exit
// 70, not "terminate called..." and a core dump. The logger may be what failed (or be locked by
// the thread that did), so this writes to stderr itself.
[[noreturn]] void on_terminate() {
    std::string what = "unknown error";
    try {
        if (auto current = std::current_exception())
            std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
        what = "out of memory";
    } catch (const std::exception& e) {
        what = e.what();
    } catch (...) {
    }
    const std::string line = "dlock: internal error: " + one_line(what) + "\n";
    (void)!::write(STDERR_FILENO, line.data(), line.size());
    _exit(exit_code::internal);
}

// What a failed `dlock acquire` prints for `eval "$(...)"`: `exit N`, which ends a script, or at
// an interactive prompt `(exit N)`, which only sets $? (ending the login shell would be worse).
std::string evaluated_failure(int status) {
    const bool prompt =
        process::interactive_shell(process::calling_script(process::Output::captured));
    return (prompt ? "(exit " : "exit ") + std::to_string(status) + (prompt ? ")\n" : "\n");
}

int run_command_line(int argc, char** argv) {
    CommandLine line(std::vector<std::string>(argv + 1, argv + argc));
    const int status = exit_status(line.run(argv));
    if (status != exit_code::ok && line.output_is_evaluated())
        out::write(evaluated_failure(status));
    return out::finish(status);
}

} // namespace

int exit_status(const Result<int>& outcome) {
    if (outcome)
        return *outcome;
    log::final_error(outcome.error().message);
    return exit_code::of(outcome.error().fault);
}

int main(int argc, char** argv) {
    // A dropped Redis connection must be an error, not a fatal SIGPIPE (plain sockets use
    // MSG_NOSIGNAL, but OpenSSL writes with write(2)). The command gets SIGPIPE back to default
    // before exec. For stdout, util/output turns EPIPE back into SIGPIPE's quiet end.
    std::signal(SIGPIPE, SIG_IGN);
    std::set_terminate(on_terminate);
    // No path ends in an uncaught exception: whatever escapes is one line and exit 70.
    try {
        return run_command_line(argc, argv);
    } catch (const std::bad_alloc&) {
        log::final_error("internal error: out of memory");
    } catch (const std::exception& e) {
        log::final_error(std::string("internal error: ") + e.what());
    } catch (...) {
        log::final_error("internal error: unknown exception");
    }
    return exit_code::internal;
}

} // namespace dlock::cli
