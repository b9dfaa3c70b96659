#pragma once

#include <cstddef>
#include <string>
#include <sys/stat.h>

namespace dlock {

// What read_small_file found: the bytes, the file's status, and 0 or the errno of the failure:
// ENOENT and the other open(2) errors, EISDIR for a directory, EINVAL for anything but a
// regular file or a character device (/dev/null) — or a pipe when `pipes` (a password given as
// `<(pass show redis)`) — and EFBIG beyond `max_size`.
struct SmallFile {
    std::string text;
    struct stat status {};
    int error = 0;
};

// Reads a small file (a config or password file) whole, close-on-exec, retrying EINTR.
SmallFile read_small_file(const std::string& path, size_t max_size, bool pipes = false);

} // namespace dlock
