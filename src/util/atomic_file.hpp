#pragma once

#include <string>
#include <string_view>
#include <sys/types.h>

namespace dlock {

// Why write_file_atomically failed: the step ("check", "create", "write", "sync", "rename") and
// its errno, or for "check" (0) the reason in `why`.
struct AtomicWriteError {
    std::string step;
    int error = 0;
    std::string why{};
};

// Replaces `path` with `text` so that a reader sees either the old file or the new one, whole:
// writes PATH.tmp.<pid> in the same directory (permissions `mode`, whatever the umask), syncs it
// to disk, then renames it over `path`. On any failure the temporary file is removed and `path`
// is left as it was. An existing `path` that is not a regular file (a device such as /dev/null, a
// FIFO, a directory, a symbolic link) is refused: the rename would replace it, not write to it.
// Returns the failure, or a step "" on success.
AtomicWriteError write_file_atomically(const std::string& path, std::string_view text,
                                       mode_t mode = 0644);

} // namespace dlock
