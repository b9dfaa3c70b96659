#include "process/spawn.hpp"

#include "util/exit_codes.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dlock::process {
namespace {

[[noreturn]] void exec_child(const SpawnOptions& options, char* const* argv, int error_fd,
                             pid_t parent) {
    // Only async-signal-safe calls from here on.
    setpgid(0, 0);
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
    signal(SIGPIPE, SIG_DFL); // dlock ignores it for its Redis socket; the command must not
    sigprocmask(SIG_SETMASK, &options.child_mask, nullptr);
    execvp(argv[0], argv);
    int err = errno;
    (void)!write(error_fd, &err, sizeof err);
    _exit(exit_code::not_found);
}

} // namespace

Result<pid_t> spawn(const SpawnOptions& options) {
    std::vector<char*> argv;
    for (const auto& arg : options.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return fail(exit_code::internal, fmt::format("cannot create pipe: {}", strerror(errno)));
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(fds[0]);
        close(fds[1]);
        return fail(exit_code::internal, fmt::format("cannot fork: {}", strerror(err)));
    }
    if (pid == 0)
        exec_child(options, argv.data(), fds[1], parent);

    // Both sides set the group, so signals sent right after fork already reach it.
    setpgid(pid, pid);
    close(fds[1]);
    int exec_errno = 0;
    ssize_t n;
    do {
        n = read(fds[0], &exec_errno, sizeof exec_errno); // EOF when exec succeeded
    } while (n < 0 && errno == EINTR);
    close(fds[0]);
    if (n <= 0)
        return pid;

    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const int code = (exec_errno == ENOENT || exec_errno == ENOTDIR) ? exit_code::not_found
                                                                     : exit_code::not_executable;
    return fail(code, fmt::format("cannot run {}: {}", options.argv[0], strerror(exec_errno)));
}

} // namespace dlock::process
