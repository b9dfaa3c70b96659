#include "process/spawn.hpp"

#include "util/exit_codes.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dlock::process {
namespace {

// What went wrong in the child before the command ran, handed back through shared memory.
struct ChildFailure {
    const char* step = nullptr; // the call that failed before exec ("setpgid", ...); null: exec
    int error = 0;              // its errno; 0 while all went well
};

// Runs in the vfork child, which shares our memory until it execs: only plain system calls.
// Each step the command's safety depends on is checked (a command outside its own process
// group could not be stopped when the lease is lost; one without PDEATHSIG would outlive a
// killed dlock): a failure ends the child with exit_code::internal and leaves the step and its
// errno in `failure`.
[[noreturn]] void exec_child(const SpawnOptions& options, char* const* argv,
                             volatile ChildFailure* failure, pid_t parent) {
    auto check = [failure](bool ok, const char* step) {
        if (ok)
            return;
        failure->error = errno;
        failure->step = step;
        _exit(exit_code::internal);
    };
    check(setpgid(0, 0) == 0, "setpgid");
    if (options.announce_group)
        options.announce_group->store(getpid());
    if (options.take_terminal) {
        // We are a background group until this call; block SIGTTOU so it does not stop us.
        sigset_t ttou;
        sigemptyset(&ttou);
        sigaddset(&ttou, SIGTTOU);
        check(sigprocmask(SIG_BLOCK, &ttou, nullptr) == 0, "sigprocmask");
        tcsetpgrp(STDIN_FILENO, getpid()); // failing, the command only cannot read the terminal
    }
    check(prctl(PR_SET_PDEATHSIG, SIGKILL) == 0, "prctl(PR_SET_PDEATHSIG)");
    if (getppid() != parent) // dlock died before PDEATHSIG was armed: nobody to tell
        _exit(exit_code::internal);
    // dlock ignores SIGPIPE for its Redis socket; the command must not.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    check(sigaction(SIGPIPE, &dfl, nullptr) == 0, "sigaction(SIGPIPE)");
    check(sigprocmask(SIG_SETMASK, &options.child_mask, nullptr) == 0, "sigprocmask");
    execvp(argv[0], argv);
    failure->error = errno;
    _exit(exit_code::not_found);
}

} // namespace

Result<pid_t> spawn(const SpawnOptions& options) {
    std::vector<char*> argv;
    for (const auto& arg : options.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    // vfork: no copy of our page tables and no copy-on-write faults afterwards, which is most
    // of the cost of starting the command; we are suspended until the child has exec'd or died.
    volatile ChildFailure failure;
    const pid_t parent = getpid();
    const pid_t pid = vfork();
    if (pid < 0)
        return fail(Fault::internal, fmt::format("cannot fork: {}", strerror(errno)));
    if (pid == 0)
        exec_child(options, argv.data(), &failure, parent);

    setpgid(pid, pid); // already done by the child; harmless (EACCES) after its exec
    const int err = failure.error;
    if (err == 0)
        return pid;

    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (const char* step = failure.step)
        return fail(Fault::internal,
                    fmt::format("cannot start the command: {}: {}", step, strerror(err)));
    const Fault fault = (err == ENOENT || err == ENOTDIR) ? Fault::command_not_found
                                                          : Fault::command_not_executable;
    return fail(fault, fmt::format("cannot run {}: {}", options.argv[0], strerror(err)));
}

} // namespace dlock::process
