#include "util/write_fully.hpp"

#include <cerrno>
#include <unistd.h>

namespace dlock {

int write_fully(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO;
        text.remove_prefix(static_cast<size_t>(n));
    }
    return 0;
}

} // namespace dlock
