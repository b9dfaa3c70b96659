#pragma once

#include <cstddef>
#include <string>
#include <sys/stat.h>

namespace dlock {

// Which files besides regular ones a reader takes. Anything else (a FIFO, a terminal, a socket,
// a device) is refused before it is read: a FIFO without a writer, or a terminal, would block
// dlock with no bound.
struct FileKinds {
    bool dev_null = false; // the /dev/null device: "no file" (config files)
    // An anonymous pipe (pipefs), as `<(pass show redis)` or `/dev/stdin` in a pipeline give:
    // its writer exists, and ends it. A named FIFO (mkfifo) is still refused.
    bool pipes = false;
};

// Opens `path` to read it, close-on-exec, without blocking on a FIFO (O_NONBLOCK, cleared again
// for an accepted pipe), and checks what it is. Returns the fd, or -1 with errno: the open(2)
// errors, EISDIR for a directory, EINVAL for any other kind of file `kinds` does not take.
// `status` (if given) receives the file's status.
int open_regular_file(const std::string& path, FileKinds kinds = {}, struct stat* status = nullptr);

// What read_small_file found: the bytes, the file's status, and 0 or the errno of the failure:
// those of open_regular_file, and EFBIG beyond `max_size`.
struct SmallFile {
    std::string text;
    struct stat status {};
    int error = 0;
};

// Reads a small file (a config or password file) whole, retrying EINTR.
SmallFile read_small_file(const std::string& path, size_t max_size, FileKinds kinds = {});

// For messages: "not a regular file" for EINVAL, else strerror.
std::string file_error_text(int error);

} // namespace dlock
