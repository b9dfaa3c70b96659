#include "util/signal_free_thread.hpp"

#include "util/log.hpp"

#include <csignal>
#include <cstring>

namespace dlock {

std::thread signal_free_thread(std::function<void()> body) {
    // A new thread inherits the mask of the thread that starts it.
    sigset_t all, previous;
    sigfillset(&all);
    const int blocked = pthread_sigmask(SIG_SETMASK, &all, &previous);
    if (blocked != 0)
        log::warn("cannot block signals in a new thread: {}", std::strerror(blocked));
    std::thread thread(std::move(body));
    if (blocked == 0)
        if (const int err = pthread_sigmask(SIG_SETMASK, &previous, nullptr); err != 0)
            log::warn("cannot unblock signals after starting a thread: {}", std::strerror(err));
    return thread;
}

} // namespace dlock
