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

// Runs in the vfork child, which shares our memory until it execs: only plain system calls,
// and the exec error is handed back through `exec_errno`.
[[noreturn]] void exec_child(const SpawnOptions& options, char* const* argv,
                             volatile int* exec_errno, pid_t parent) {
    setpgid(0, 0);
    if (options.announce_group)
        options.announce_group->store(getpid());
    if (options.take_terminal) {
        // We are a background group until this call; block SIGTTOU so it does not stop us.
        sigset_t ttou;
        sigemptyset(&ttou);
        sigaddset(&ttou, SIGTTOU);
        sigprocmask(SIG_BLOCK, &ttou, nullptr);
        tcsetpgrp(STDIN_FILENO, getpid());
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) // dlock died before PDEATHSIG was armed
        _exit(exit_code::internal);
    // dlock ignores SIGPIPE for its Redis socket; the command must not.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, nullptr);
    sigprocmask(SIG_SETMASK, &options.child_mask, nullptr);
    execvp(argv[0], argv);
    *exec_errno = errno;
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
    volatile int exec_errno = 0;
    const pid_t parent = getpid();
    const pid_t pid = vfork();
    if (pid < 0)
        return fail(exit_code::internal, fmt::format("cannot fork: {}", strerror(errno)));
    if (pid == 0)
        exec_child(options, argv.data(), &exec_errno, parent);

    setpgid(pid, pid); // already done by the child; harmless (EACCES) after its exec
    if (exec_errno == 0)
        return pid;

    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const int err = exec_errno;
    const int code =
        (err == ENOENT || err == ENOTDIR) ? exit_code::not_found : exit_code::not_executable;
    return fail(code, fmt::format("cannot run {}: {}", options.argv[0], strerror(err)));
}

} // namespace dlock::process
