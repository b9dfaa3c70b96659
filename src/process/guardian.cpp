#include "process/guardian.hpp"

#include "util/log.hpp"
#include "util/signals.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace dlock::process {

// What the guardian reads: shared with dlock, since the guardian runs in dlock's memory.
struct Guardian::State {
    std::atomic<pid_t> group{0};
    int read_fd = -1;
    int write_fd = -1;
    // dlock's side only: -1 once closed (write_fd), reaped (pid), or without one (pidfd).
    pid_t pid = -1;
    int pidfd = -1;
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
    // Every descriptor but the read end: the write end (or end of file would never come),
    // dlock's Redis connections, and its stdin, stdout and stderr (a reader of dlock's output,
    // such as `x=$(dlock run ...)`, must see end of file when dlock exits, not when we do).
    if (state->read_fd > 0)
        raw_syscall(SYS_close_range, 0, state->read_fd - 1, 0);
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

// The guardians not reaped yet, for die_of_signal (a process ending by a signal runs no
// destructor). Never destroyed: a static destructor could run after the last use.
std::mutex registry_mutex;
std::vector<Guardian::State*>& registry() {
    static auto* states = new std::vector<Guardian::State*>();
    return *states;
}

// Closes the pipe (the guardian exits, killing its group first if still armed), then waits for
// it to exit, at most kReapWaitMs, and reaps it. False if it did not exit in time: it still runs
// on the stack in `state`, which must then never be freed.
bool end_guardian(Guardian::State& state) {
    if (state.write_fd >= 0) {
        close(state.write_fd);
        state.write_fd = -1;
    }
    if (state.pid < 0)
        return true;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(Guardian::kReapWaitMs);
    for (;;) {
        // No exit signal: a "clone" child, which only __WCLONE waits for.
        const pid_t reaped = waitpid(state.pid, nullptr, __WCLONE | WNOHANG);
        if (reaped == state.pid || (reaped < 0 && errno != EINTR)) // ECHILD: not ours any more
            break;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            log::warn("the guardian process {} did not exit; not waiting for it", state.pid);
            return false;
        }
        if (state.pidfd >= 0) { // readable once it has exited
            pollfd exited{state.pidfd, POLLIN, 0};
            (void)poll(&exited, 1, static_cast<int>(left.count()));
        } else {
            const timespec pause{0, 1'000'000};
            nanosleep(&pause, nullptr);
        }
    }
    state.pid = -1;
    if (state.pidfd >= 0) {
        close(state.pidfd);
        state.pidfd = -1;
    }
    return true;
}

// Before dlock dies of a signal: end and reap every guardian.
void end_every_guardian() {
    const std::lock_guard lock(registry_mutex);
    for (Guardian::State* state : registry())
        (void)end_guardian(*state);
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
        return fail(Fault::internal,
                    fmt::format("cannot start the guardian process: pipe: {}", strerror(errno)));
    State& state = *guardian.state_;
    state.read_fd = fds[0];
    state.write_fd = fds[1];

    // The guardian starts with every signal blocked (it inherits this thread's mask).
    sigset_t all, previous;
    sigfillset(&all);
    if (const int err = pthread_sigmask(SIG_SETMASK, &all, &previous); err != 0) {
        close(fds[0]);
        close(fds[1]);
        state.write_fd = -1;
        return fail(
            Fault::internal,
            fmt::format("cannot start the guardian process: pthread_sigmask: {}", strerror(err)));
    }
    // No exit signal: waits for "any child" (the supervisor reaping orphans) leave it alone,
    // so its pid stays ours until end_guardian() waits for it. CLONE_PIDFD (close-on-exec, not
    // in the guardian's table) bounds that wait at no cost here; before Linux 5.2, without it.
    int pidfd = -1;
    pid_t pid =
        clone(guard, state.stack + sizeof state.stack, CLONE_VM | CLONE_PIDFD, &state, &pidfd);
    if (pid < 0 && errno == EINVAL) {
        pidfd = -1;
        pid = clone(guard, state.stack + sizeof state.stack, CLONE_VM, &state);
    }
    const int clone_errno = errno;
    // Only bad arguments make it fail; a thread left with every signal blocked would still
    // work (the supervisor reads them from a signalfd), but say so.
    if (const int err = pthread_sigmask(SIG_SETMASK, &previous, nullptr); err != 0)
        log::warn("cannot unblock signals after starting the guardian process: {}", strerror(err));
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        state.write_fd = -1;
        return fail(Fault::internal,
                    fmt::format("cannot start the guardian process: {}", strerror(clone_errno)));
    }
    state.pid = pid;
    state.pidfd = pidfd;
    {
        const std::lock_guard lock(registry_mutex);
        registry().push_back(&state);
    }
    set_before_dying(end_every_guardian);
    return guardian;
}

Guardian::Guardian(Guardian&& other) noexcept : state_(other.state_) {
    other.state_ = nullptr;
}

Guardian::~Guardian() {
    if (state_ == nullptr)
        return;
    const std::lock_guard lock(registry_mutex);
    auto& states = registry();
    states.erase(std::remove(states.begin(), states.end(), state_), states.end());
    if (end_guardian(*state_)) {
        delete state_;
    } else {
        // Still running on its stack: never freed, and reachable (not a leak to LeakSanitizer).
        static auto* abandoned = new std::vector<State*>();
        abandoned->push_back(state_);
    }
}

std::atomic<pid_t>& Guardian::group() const {
    return state_->group;
}

void Guardian::disarm() const {
    group().store(0);
}

void Guardian::dismiss() const {
    disarm();
    const std::lock_guard lock(registry_mutex);
    if (state_->write_fd >= 0) {
        close(state_->write_fd);
        state_->write_fd = -1;
    }
}

pid_t Guardian::pid() const {
    return state_->pid;
}

} // namespace dlock::process
