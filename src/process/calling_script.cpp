#include "process/calling_script.hpp"

#include <cstdio>
#include <fcntl.h>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace dlock::process {
namespace {

// Deep enough for any shell's nesting of subshells and wrappers; a bound all the same.
constexpr int kMaxSteps = 32;

// The inode of the host's PID namespace (PROC_PID_INIT_INO in the kernel).
constexpr ino_t kHostPidNamespace = 0xEFFFFFFC;

// The parent of `pid` from /proc/PID/stat (after the command name, which may hold anything).
struct Ids {
    pid_t parent = 0;
    pid_t group = 0;
};

// The parent and process group of `pid` from /proc/PID/stat ("PID (COMM) S PPID PGRP ...",
// after the command name, which may hold anything).
std::optional<Ids> ids_of(pid_t pid) {
    const std::string stat = proc_file(pid, "stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 4 >= stat.size())
        return std::nullopt;
    Ids ids;
    if (sscanf(stat.c_str() + paren + 2, "%*c %d %d", &ids.parent, &ids.group) != 2)
        return std::nullopt;
    return ids;
}

// The pipe dlock's stdout is, if it is one (a command substitution's).
std::optional<struct stat> stdout_pipe() {
    struct stat st {};
    if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode))
        return std::nullopt;
    return st;
}

bool writes_to(pid_t pid, const struct stat& pipe) {
    struct stat st {};
    return stat(fmt::format("/proc/{}/fd/1", pid).c_str(), &st) == 0 && st.st_dev == pipe.st_dev &&
           st.st_ino == pipe.st_ino;
}

// A subshell of a script: a fork of its parent that did not exec, so it shows the same command
// line, in the parent's process group. (A shell started by an interactive shell, even one with
// the same command line, is a job of its own group: the walk must not pin a lock to a login
// shell.)
bool subshell_of(pid_t pid, const Ids& mine) {
    const std::string line = proc_file(pid, "cmdline");
    const auto parents = ids_of(mine.parent);
    return parents && parents->group == mine.group && !line.empty() &&
           line == proc_file(mine.parent, "cmdline");
}

} // namespace

std::string proc_file(pid_t pid, const char* name) {
    std::string text;
    const int fd = open(fmt::format("/proc/{}/{}", pid, name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return text;
    char buffer[4096];
    ssize_t n;
    // /proc reads of a live process never block; past 64 KiB the text is cut.
    while (text.size() < 65536 && (n = read(fd, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<size_t>(n));
    close(fd);
    return text;
}

pid_t calling_script() {
    const auto pipe = stdout_pipe();
    pid_t pid = getppid();
    for (int step = 0; step < kMaxSteps && pid > 1; ++step) {
        const auto ids = ids_of(pid);
        if (!ids || ids->parent < 1)
            break;
        const bool helper = (pipe && writes_to(pid, *pipe)) || subshell_of(pid, *ids);
        if (!helper)
            break;
        pid = ids->parent;
    }
    return pid;
}

bool in_container_pid_namespace() {
    struct stat st {};
    return stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != kHostPidNamespace;
}

} // namespace dlock::process
