#include "process/calling_script.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace dlock::process {
namespace {

// Deep enough for any shell's nesting of subshells and wrappers; a bound all the same.
constexpr int kMaxSteps = 32;

// The inode of the host's PID namespace (PROC_PID_INIT_INO in the kernel).
constexpr ino_t kHostPidNamespace = 0xEFFFFFFC;

// Programs that run a command as their child and wait for it, whatever their command line says
// (/proc/PID/comm, at most 15 characters).
constexpr std::array<std::string_view, 21> kWrappers{
    "timeout", "xargs",  "time",    "strace",  "ltrace",  "flock",    "setsid",
    "sudo",    "su",     "runuser", "doas",    "setpriv", "nohup",    "env",
    "nice",    "ionice", "chrt",    "taskset", "stdbuf",  "unbuffer", "chronic"};

constexpr std::array<std::string_view, 9> kShells{"sh",   "bash", "dash", "zsh",    "ksh",
                                                  "mksh", "fish", "ash",  "busybox"};

struct Ids {
    pid_t parent = 0;
    pid_t session = 0;
};

// The parent and session of `pid` from /proc/PID/stat ("PID (COMM) S PPID PGRP SID ...", after
// the command name, which may hold anything).
std::optional<Ids> ids_of(pid_t pid) {
    const std::string stat = proc_file(pid, "stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 4 >= stat.size())
        return std::nullopt;
    Ids ids;
    if (sscanf(stat.c_str() + paren + 2, "%*c %d %*d %d", &ids.parent, &ids.session) != 2)
        return std::nullopt;
    return ids;
}

std::string joined(const std::vector<std::string>& words, size_t from) {
    std::string text;
    for (size_t i = from; i < words.size(); ++i)
        text += (i == from ? "" : " ") + words[i];
    return text;
}

std::string_view base_name(std::string_view path) {
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

template <size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name) {
    for (std::string_view n : names)
        if (n == name)
            return true;
    return false;
}

// A process that ran dlock as its child: its command line ends with dlock's own arguments
// (`timeout 10 dlock release`, `su u -c 'dlock acquire x'`), or it is a known wrapper.
bool wrapper_of_us(pid_t pid, const std::vector<std::string>& ours) {
    std::string comm = proc_file(pid, "comm");
    while (!comm.empty() && comm.back() == '\n')
        comm.pop_back();
    if (one_of(kWrappers, comm))
        return true;
    const std::string mine = joined(ours, 1);
    const std::string theirs = joined(proc_words(pid), 0);
    if (mine.empty() || theirs.size() <= mine.size() ||
        theirs.compare(theirs.size() - mine.size(), mine.size(), mine) != 0)
        return false;
    // What precedes our arguments there is our program's name, as the wrapper was given it.
    const std::string before = theirs.substr(0, theirs.size() - mine.size());
    const std::string program = std::string(base_name(ours[0])) + " ";
    return before.size() >= program.size() &&
           before.compare(before.size() - program.size(), program.size(), program) == 0;
}

// The pipe dlock's stdout is, if it is one.
std::optional<struct stat> stdout_pipe() {
    struct stat st {};
    if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode))
        return std::nullopt;
    return st;
}

// Whether `pid` has `pipe` open for reading (its read end: both ends are one inode).
bool reads(pid_t pid, const struct stat& pipe) {
    DIR* dir = opendir(fmt::format("/proc/{}/fd", pid).c_str());
    if (dir == nullptr)
        return false;
    bool found = false;
    while (const dirent* entry = readdir(dir)) {
        struct stat st {};
        if (entry->d_name[0] == '.' || fstatat(dirfd(dir), entry->d_name, &st, 0) != 0 ||
            st.st_dev != pipe.st_dev || st.st_ino != pipe.st_ino)
            continue;
        const std::string info = proc_file(pid, fmt::format("fdinfo/{}", entry->d_name).c_str());
        const size_t at = info.find("flags:");
        if (at != std::string::npos &&
            (strtol(info.c_str() + at + 6, nullptr, 8) & O_ACCMODE) == O_RDONLY) {
            found = true;
            break;
        }
    }
    closedir(dir);
    return found;
}

// The nearest process above dlock, in its session, that reads dlock's stdout pipe; 0 if none.
pid_t substitution_reader(const struct stat& pipe, pid_t session) {
    pid_t pid = getppid();
    for (int step = 0; step < kMaxSteps && pid >= 1; ++step) {
        const auto ids = ids_of(pid);
        if (!ids || ids->session != session)
            return 0;
        if (reads(pid, pipe))
            return pid;
        if (pid == 1)
            return 0;
        pid = ids->parent;
    }
    return 0;
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

std::vector<std::string> proc_words(pid_t pid) {
    const std::string text = proc_file(pid, "cmdline");
    std::vector<std::string> words;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\0', start);
        if (end == std::string::npos)
            end = text.size();
        words.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return words;
}

pid_t calling_script(Output output) {
    const pid_t session = getsid(0);
    if (const auto pipe = output == Output::captured ? stdout_pipe() : std::nullopt)
        if (const pid_t reader = substitution_reader(*pipe, session))
            return reader;
    const auto ours = proc_words(getpid());
    pid_t pid = getppid();
    for (int step = 0; step < kMaxSteps && pid > 1; ++step) {
        const auto ids = ids_of(pid);
        if (!ids || ids->parent < 1 || ids->session != session || !wrapper_of_us(pid, ours))
            break;
        pid = ids->parent;
    }
    return pid;
}

bool interactive_shell(pid_t pid) {
    const auto words = proc_words(pid);
    if (words.empty())
        return false;
    std::string_view program = base_name(words[0]);
    if (!program.empty() && program.front() == '-') // a login shell
        program.remove_prefix(1);
    if (!one_of(kShells, program))
        return false;
    for (size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        const bool option = !w.empty() && (w[0] == '-' || w[0] == '+');
        if (!option ||
            (w[0] == '-' && w.size() > 1 && w[1] != '-' && w.find('c') != std::string::npos))
            return false; // a script, or -c
        if (w == "-o" || w == "+o")
            ++i; // its argument
    }
    char tty[64] = {};
    const ssize_t n = readlink(fmt::format("/proc/{}/fd/0", pid).c_str(), tty, sizeof tty - 1);
    const std::string_view in(tty, n > 0 ? static_cast<size_t>(n) : 0);
    return in.rfind("/dev/pts/", 0) == 0 || in.rfind("/dev/tty", 0) == 0 || in == "/dev/console";
}

bool in_container_pid_namespace() {
    struct stat st {};
    return stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != kHostPidNamespace;
}

} // namespace dlock::process
