#include "process/owner.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dlock::process {

Result<Owner> Owner::open(pid_t pid) {
    if (pid <= 1)
        return usage_error(fmt::format("--pid {}: not a process that exits (give the script's "
                                       "pid, e.g. --pid $$)",
                                       pid));
    const long fd = syscall(SYS_pidfd_open, pid, 0); // close-on-exec by default
    if (fd < 0 && errno == ESRCH)
        return usage_error(fmt::format("--pid {}: no such process", pid));
    if (fd < 0)
        return fail(Fault::internal,
                    fmt::format("cannot watch process {} (pidfd_open): {}", pid, strerror(errno)));
    return Owner(pid, static_cast<int>(fd));
}

Owner::Owner(Owner&& other) noexcept : pid_(other.pid_), fd_(other.fd_) {
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

std::vector<std::string> Owner::argv() const {
    std::vector<std::string> words;
    const int fd = ::open(fmt::format("/proc/{}/cmdline", pid_).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return words;
    std::string text;
    char buffer[4096];
    ssize_t n;
    // /proc reads of a live process never block; a command line past 64 KiB is cut.
    while (text.size() < 65536 && (n = read(fd, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<size_t>(n));
    close(fd);
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\0', start);
        if (end == std::string::npos)
            end = text.size();
        words.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return words;
}

} // namespace dlock::process
