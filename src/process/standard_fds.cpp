#include "process/standard_fds.hpp"

#include <cerrno>
#include <fcntl.h>

namespace dlock::process {

bool ensure_standard_fds() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        // The lowest free number is `fd` itself, since the ones below it are open.
        if (open("/dev/null", O_RDWR) != fd)
            return false;
    }
    return true;
}

} // namespace dlock::process
