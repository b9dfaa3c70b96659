#include "process/fd_budget.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dlock::app {
namespace {

constexpr int kMaxProbe = 32;

// How many of `wanted` more descriptors can be opened now: opens them (the lowest free numbers,
// as any later open would take) and closes them again. A few system calls, no /proc.
int free_fds(int wanted) {
    std::array<int, kMaxProbe> fds{};
    int opened = 0;
    bool unknown = false;
    while (opened < wanted) {
        const int fd =
            opened == 0 ? open("/", O_PATH | O_CLOEXEC) : fcntl(fds[0], F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            unknown = errno != EMFILE; // not a matter of descriptors: let the run go on
            break;
        }
        fds[opened++] = fd;
    }
    for (int i = 0; i < opened; ++i)
        close(fds[i]);
    return unknown ? wanted : opened;
}

// The descriptor numbers under `limit` not in use, counted from /proc/self/fd: four system
// calls whatever the numbers, where opening them one by one costs two per descriptor. -1 when
// /proc cannot be read.
int unused_below(rlim_t limit) {
    const int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return -1;
    rlim_t in_use = 0;
    alignas(dirent64) char buffer[4096];
    long got;
    while ((got = syscall(SYS_getdents64, dir, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got;) {
            const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
            at += entry->d_reclen;
            if (entry->d_name[0] == '.')
                continue;
            const int fd = std::atoi(entry->d_name);
            if (fd != dir && static_cast<rlim_t>(fd) < limit)
                ++in_use;
        }
    }
    close(dir);
    if (got < 0)
        return -1;
    return static_cast<int>(std::min<rlim_t>(limit - in_use, kMaxProbe));
}

} // namespace

Result<void> check_fd_budget(int needed) {
    needed = std::min(needed, kMaxProbe);
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return {};
    int available = unused_below(limit.rlim_cur);
    if (available < 0)
        available = free_fds(needed);
    if (available >= needed)
        return {};
    return usage_error(fmt::format(
        "too few file descriptors: a run needs {} besides those already open, and only {} are "
        "free under the limit of {} (ulimit -n)",
        needed, available, static_cast<unsigned long long>(limit.rlim_cur)));
}

} // namespace dlock::app
