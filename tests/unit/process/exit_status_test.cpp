#include "process/exit_status.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using dlock::process::exit_code_from_wait_status;

namespace {

// The wait status of a real child that runs `body`.
template <typename F>
int status_of_child(F body) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        body();
        _exit(99);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return status;
}

} // namespace

TEST_CASE("a normal exit gives the command's exit code", "[exit_status]") {
    CHECK(exit_code_from_wait_status(status_of_child([] { _exit(0); })) == 0);
    CHECK(exit_code_from_wait_status(status_of_child([] { _exit(3); })) == 3);
    CHECK(exit_code_from_wait_status(status_of_child([] { _exit(255); })) == 255);
}

TEST_CASE("death by signal N gives 128+N", "[exit_status]") {
    CHECK(exit_code_from_wait_status(status_of_child([] { raise(SIGKILL); })) == 137);
    CHECK(exit_code_from_wait_status(status_of_child([] {
              signal(SIGTERM, SIG_DFL);
              raise(SIGTERM);
          })) == 143);
}

TEST_CASE("a status that is neither exit nor signal is an internal error", "[exit_status]") {
    const int stopped = (SIGSTOP << 8) | 0x7f; // what waitpid reports with WUNTRACED
    REQUIRE(WIFSTOPPED(stopped));
    CHECK(exit_code_from_wait_status(stopped) == 70);
}
