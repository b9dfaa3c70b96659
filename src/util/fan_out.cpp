#include "util/fan_out.hpp"

#include <csignal>
#include <pthread.h>
#include <system_error>
#include <thread>
#include <vector>

namespace dlock {

void fan_out(size_t n, const std::function<void(size_t)>& task) {
    if (n == 0)
        return;
    std::vector<std::thread> threads;
    threads.reserve(n - 1);
    sigset_t all, previous;
    sigfillset(&all);
    // Fails only on bad arguments; the threads would then merely take signals too.
    const bool blocked = pthread_sigmask(SIG_SETMASK, &all, &previous) == 0;
    std::vector<size_t> inline_tasks{0};
    for (size_t i = 1; i < n; ++i) {
        try {
            threads.emplace_back([&task, i] { task(i); });
        } catch (const std::system_error&) { // no thread to be had (EAGAIN): one after another
            inline_tasks.push_back(i);
        }
    }
    if (blocked)
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    for (size_t i : inline_tasks)
        task(i);
    for (auto& thread : threads)
        thread.join();
}

} // namespace dlock
