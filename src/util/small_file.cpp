#include "util/small_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace dlock {

SmallFile read_small_file(const std::string& path, size_t max_size, bool pipes) {
    SmallFile file;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        file.error = errno;
        return file;
    }
    if (::fstat(fd, &file.status) != 0)
        file.error = errno;
    else if (S_ISDIR(file.status.st_mode))
        file.error = EISDIR;
    else if (!S_ISREG(file.status.st_mode) && !S_ISCHR(file.status.st_mode) &&
             !(pipes && S_ISFIFO(file.status.st_mode)))
        file.error = EINVAL;
    char buffer[4096];
    while (file.error == 0) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            file.error = n == 0 ? 0 : errno;
            break;
        }
        file.text.append(buffer, static_cast<size_t>(n));
        if (file.text.size() > max_size)
            file.error = EFBIG; // /dev/zero, or the wrong file
    }
    ::close(fd);
    return file;
}

} // namespace dlock
