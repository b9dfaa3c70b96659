#include "process/dynamic_handover.hpp"

#include "util/log.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fmt/format.h>
#include <string_view>
#include <sys/auxv.h>
#include <unistd.h>
#include <vector>

#ifndef DLOCK_LIBEXEC_FROM_BIN
#define DLOCK_LIBEXEC_FROM_BIN "../libexec/dlock"
#endif

extern char** environ;

namespace dlock::process {
namespace {

constexpr const char* kSibling = "dlock-dynamic";

// The directory of this executable: /proc/self/exe, or the path it was started by.
std::string own_directory() {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    std::string self;
    if (n > 0)
        self.assign(path, static_cast<size_t>(n));
    else if (const auto* execfn = reinterpret_cast<const char*>(getauxval(AT_EXECFN)))
        self = execfn;
    const size_t slash = self.rfind('/');
    return slash == std::string::npos ? "." : self.substr(0, slash);
}

// `directory`/`relative`, with the leading "../" of `relative` taken off `directory`: the path
// is logged and shown in errors.
std::string join(std::string directory, std::string_view relative) {
    while (relative.starts_with("../") && directory.size() > 1) {
        const size_t slash = directory.rfind('/');
        if (slash == std::string::npos || directory.substr(slash + 1) == "..")
            break;
        directory.resize(slash == 0 ? 1 : slash);
        relative.remove_prefix(3);
    }
    return directory.ends_with('/') ? directory + std::string(relative)
                                    : directory + "/" + std::string(relative);
}

} // namespace

Error hand_over_to_dynamic_build(char* const* argv, const std::string& why) {
    const std::string directory = own_directory();
    const std::vector<std::string> candidates = {
        join(directory, kSibling),
        join(directory, fmt::format("{}/{}", DLOCK_LIBEXEC_FROM_BIN, kSibling))};
    std::string tried;
    for (const auto& path : candidates) {
        // Absent candidates are skipped quietly, so that the log names the one run.
        if (access(path.c_str(), F_OK) == 0) {
            log::debug("{}: handing over to {}", why, path);
            execve(path.c_str(), argv, environ);
        }
        const int err = errno;
        tried += fmt::format("{}{} ({})", tried.empty() ? "" : ", ", path, strerror(err));
        if (err != ENOENT)
            break; // it is there but cannot run: say so rather than look further
    }
    return Error{
        Fault::unavailable,
        fmt::format("{}, which only dlock-dynamic can load; it could not be run: {}", why, tried)};
}

} // namespace dlock::process
