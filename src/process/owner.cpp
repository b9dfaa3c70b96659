#include "process/owner.hpp"

#include "process/calling_script.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dlock::process {

Result<Owner> Owner::open(pid_t pid) {
    // Pid 1 is init, which never exits, except in a container's PID namespace, where it is
    // the container's first process: often the very script.
    if (pid < 1 || (pid == 1 && !in_container_pid_namespace()))
        return usage_error(fmt::format("--pid {}: not a process that exits (give the script's "
                                       "pid, e.g. --pid $$)",
                                       pid));
    const long fd = syscall(SYS_pidfd_open, pid, 0); // close-on-exec by default
    if (fd < 0 && errno == ESRCH)
        return usage_error(fmt::format("--pid {}: no such process", pid));
    if (fd < 0)
        return fail(Fault::internal,
                    fmt::format("cannot watch process {} (pidfd_open): {}", pid, strerror(errno)));
    pid_t group = getpgid(pid);
    if (group < 0) {
        close(static_cast<int>(fd));
        return usage_error(fmt::format("--pid {}: no such process", pid));
    }
    // A group this PID namespace cannot name (0: a container's first process, whose group lives
    // outside), or init's: kill(-0) and kill(-1) would reach other processes entirely.
    if (group <= 1)
        group = 0;
    return Owner(pid, static_cast<int>(fd), group);
}

Owner::Owner(Owner&& other) noexcept : pid_(other.pid_), fd_(other.fd_), group_(other.group_) {
    other.fd_ = -1;
}

Owner::~Owner() {
    if (fd_ >= 0)
        close(fd_);
}

bool Owner::alive() const {
    pollfd p{fd_, POLLIN, 0};
    return poll(&p, 1, 0) == 0;
}

bool Owner::signal(int signal) const {
    return syscall(SYS_pidfd_send_signal, fd_, signal, nullptr, 0) == 0;
}

bool Owner::can_signal() const {
    return syscall(SYS_pidfd_send_signal, fd_, 0, nullptr, 0) == 0 || errno != EPERM;
}

void Owner::signal_group(int signal) const {
    if (group_ > 1)
        kill(-group_, signal);
    this->signal(signal);
}

bool Owner::group_alive() const {
    if (group_ <= 1)
        return alive();
    return kill(-group_, 0) == 0 || errno == EPERM;
}

std::vector<std::string> Owner::argv() const {
    return proc_words(pid_);
}

} // namespace dlock::process
