#include "app/fd_budget.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
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

} // namespace

Result<void> check_fd_budget(int needed) {
    needed = std::min(needed, kMaxProbe);
    const int available = free_fds(needed);
    if (available >= needed)
        return {};
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    return usage_error(fmt::format(
        "too few file descriptors: a run needs {} besides those already open, and only {} are "
        "free under the limit of {} (ulimit -n)",
        needed, available, static_cast<unsigned long long>(limit.rlim_cur)));
}

} // namespace dlock::app
