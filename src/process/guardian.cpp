#include "process/guardian.hpp"

#include "util/log.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace dlock::process {

// What the guardian reads: shared with dlock, since the guardian runs in dlock's memory.
struct Guardian::State {
    std::atomic<pid_t> group{0};
    int read_fd = -1;
    int write_fd = -1;
    alignas(64) char stack[64 * 1024];
};

namespace {

// The guardian shares dlock's memory but not its threads' bookkeeping: its thread pointer is
// that of the thread that cloned it, so errno, and anything a sanitizer keeps per thread, belong
// to that thread. It therefore makes raw system calls only, which leave errno alone.
#define DLOCK_GUARDIAN_CODE __attribute__((no_sanitize("address", "thread", "undefined")))

DLOCK_GUARDIAN_CODE long raw_syscall(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
#if defined(__x86_64__)
    long result;
    register long r10 asm("r10") = d;
    asm volatile("syscall"
                 : "=a"(result)
                 : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                 : "rcx", "r11", "memory");
    return result;
#elif defined(__aarch64__)
    register long x8 asm("x8") = number;
    register long x0 asm("x0") = a;
    register long x1 asm("x1") = b;
    register long x2 asm("x2") = c;
    register long x3 asm("x3") = d;
    asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
#else
    return syscall(number, a, b, c, d); // may set errno: harmless but not ideal
#endif
}

// How long the guardian keeps killing a group whose members are still being reaped.
constexpr int kKillRounds = 200;
constexpr long kKillPauseNs = 5'000'000;

DLOCK_GUARDIAN_CODE int guard(void* arg) {
    auto* state = static_cast<Guardian::State*>(arg);
    // Signals were all blocked by the thread that cloned us, and stay so. A group of our own:
    // a signal to dlock's job must not reach us.
    raw_syscall(SYS_setpgid, 0, 0);
    raw_syscall(SYS_prctl, PR_SET_NAME, reinterpret_cast<long>("lockguard"));
    raw_syscall(SYS_close, state->write_fd); // or end of file would never come
    // Nor may we keep dlock's Redis connections open after it died.
    if (state->read_fd > 3)
        raw_syscall(SYS_close_range, 3, state->read_fd - 1, 0);
    raw_syscall(SYS_close_range, state->read_fd + 1, ~0U, 0);

    char byte;
    while (raw_syscall(SYS_read, state->read_fd, reinterpret_cast<long>(&byte), 1) > 0) {
    }
    // dlock is gone, or is exiting and has disarmed us.
    const pid_t group = state->group.load();
    if (group <= 0)
        return 0;
    const timespec pause{0, kKillPauseNs};
    // Until no member is left (members already dead are reaped by their new parent).
    for (int round = 0; round < kKillRounds; ++round) {
        if (raw_syscall(SYS_kill, -group, SIGKILL) != 0)
            break;
        raw_syscall(SYS_nanosleep, reinterpret_cast<long>(&pause), 0);
    }
    return 0;
}

// Valgrind runs only thread- and fork-like clones, and ends the process on any other. Its
// preload library in LD_PRELOAD gives it away.
bool under_valgrind() {
    const char* preload = getenv("LD_PRELOAD");
    return preload != nullptr && strstr(preload, "/vgpreload") != nullptr;
}

} // namespace

Result<Guardian> Guardian::start() {
    Guardian guardian;
    // Not value-initialized: zeroing the stack would touch (fault in) all of its pages.
    guardian.state_ = new State;
    if (under_valgrind()) {
        log::debug("no guardian process under valgrind");
        return guardian;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return fail(exit_code::internal,
                    fmt::format("cannot start the guardian process: pipe: {}", strerror(errno)));
    guardian.state_->read_fd = fds[0];
    guardian.state_->write_fd = fds[1];

    // The guardian starts with every signal blocked (it inherits this thread's mask).
    sigset_t all, previous;
    sigfillset(&all);
    if (const int err = pthread_sigmask(SIG_SETMASK, &all, &previous); err != 0) {
        close(fds[0]);
        close(fds[1]);
        return fail(
            exit_code::internal,
            fmt::format("cannot start the guardian process: pthread_sigmask: {}", strerror(err)));
    }
    // No exit signal: waits for "any child" (the supervisor reaping orphans) leave it alone,
    // so its pid stays ours until the destructor waits for it.
    State& state = *guardian.state_;
    const pid_t pid = clone(guard, state.stack + sizeof state.stack, CLONE_VM, &state);
    const int clone_errno = errno;
    // Only bad arguments make it fail; a thread left with every signal blocked would still
    // work (the supervisor reads them from a signalfd), but say so.
    if (const int err = pthread_sigmask(SIG_SETMASK, &previous, nullptr); err != 0)
        log::warn("cannot unblock signals after starting the guardian process: {}", strerror(err));
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return fail(exit_code::internal,
                    fmt::format("cannot start the guardian process: {}", strerror(clone_errno)));
    }
    guardian.pid_ = pid;
    guardian.pipe_fd_ = fds[1];
    return guardian;
}

Guardian::Guardian(Guardian&& other) noexcept
    : pid_(other.pid_), pipe_fd_(other.pipe_fd_), state_(other.state_) {
    other.pid_ = -1;
    other.pipe_fd_ = -1;
    other.state_ = nullptr;
}

Guardian::~Guardian() {
    if (pid_ < 0) {
        delete state_;
        return;
    }
    // End of file: it exits by itself. dlock is usually about to exit too, and waiting for the
    // guardian would cost two context switches on every run; its memory (ours) outlives us
    // anyway. So it is retired: freed by the next guardian's end, when it has long exited.
    close(pipe_fd_);
    static Retired retired; // reachable, so not a leak to LeakSanitizer either
    retired.replace(pid_, state_);
}

void Guardian::Retired::replace(pid_t pid, State* state) {
    if (pid_ >= 0)
        while (waitpid(pid_, nullptr, __WCLONE) < 0 && errno == EINTR) {
        }
    delete state_;
    pid_ = pid;
    state_ = state;
}

std::atomic<pid_t>& Guardian::group() const {
    return state_->group;
}

void Guardian::disarm() const {
    group().store(0);
}

} // namespace dlock::process
