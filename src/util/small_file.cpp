#include "util/small_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace dlock {
namespace {

bool is_dev_null(const struct stat& status) {
    return S_ISCHR(status.st_mode) && status.st_rdev == makedev(1, 3);
}

// An anonymous pipe lives on pipefs; a named FIFO on the file system that holds its name.
bool is_anonymous_pipe(int fd, const struct stat& status) {
    struct statfs fs {};
    return S_ISFIFO(status.st_mode) && ::fstatfs(fd, &fs) == 0 &&
           fs.f_type == static_cast<decltype(fs.f_type)>(PIPEFS_MAGIC);
}

} // namespace

int open_regular_file(const std::string& path, FileKinds kinds, struct stat* status) {
    // Non-blocking: opening a FIFO that has no writer would otherwise wait for one forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st {};
    int error = 0;
    if (::fstat(fd, &st) != 0)
        error = errno;
    else if (S_ISDIR(st.st_mode))
        error = EISDIR;
    else if (kinds.pipes && is_anonymous_pipe(fd, st)) {
        // Its writer has the data coming: wait for it as `cat` would.
        if (::fcntl(fd, F_SETFL, 0) != 0)
            error = errno;
    } else if (!S_ISREG(st.st_mode) && !(kinds.dev_null && is_dev_null(st)))
        error = EINVAL;
    if (error != 0) {
        ::close(fd);
        errno = error;
        return -1;
    }
    if (status)
        *status = st;
    return fd;
}

SmallFile read_small_file(const std::string& path, size_t max_size, FileKinds kinds) {
    SmallFile file;
    const int fd = open_regular_file(path, kinds, &file.status);
    if (fd < 0) {
        file.error = errno;
        return file;
    }
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
            file.error = EFBIG; // the wrong file
    }
    ::close(fd);
    return file;
}

std::string file_error_text(int error) {
    return error == EINVAL ? "not a regular file" : std::strerror(error);
}

} // namespace dlock
