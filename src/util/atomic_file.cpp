#include "util/atomic_file.hpp"

#include "util/write_fully.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlock {
namespace {

// Fills the open temporary file: its mode, its text, then fsync, so that the rename never
// publishes a file whose data is not on disk yet.
AtomicWriteError fill(int fd, std::string_view text, mode_t mode) {
    if (::fchmod(fd, mode) != 0)
        return {"create", errno};
    if (const int error = write_fully(fd, text); error != 0)
        return {"write", error};
    if (::fsync(fd) != 0)
        return {"sync", errno};
    return {};
}

} // namespace

AtomicWriteError write_file_atomically(const std::string& path, std::string_view text,
                                       mode_t mode) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return {"check", 0,
                S_ISLNK(st.st_mode) ? "it is a symbolic link; name its target"
                                    : "it is not a regular file (a device, a FIFO or a directory)"};
    const std::string temp = path + ".tmp." + std::to_string(::getpid());
    // O_NOFOLLOW: never write through a link put there; O_TRUNC: a leftover of a killed writer
    // that had the same pid is overwritten.
    const int fd =
        ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return {"create", errno};
    AtomicWriteError failure = fill(fd, text, mode);
    if (::close(fd) != 0 && failure.step.empty())
        failure = {"write", errno};
    if (failure.step.empty() && ::rename(temp.c_str(), path.c_str()) != 0)
        failure = {"rename", errno};
    if (!failure.step.empty())
        ::unlink(temp.c_str());
    return failure;
}

} // namespace dlock
