#include "util/signal_latch.hpp"

#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/signals.hpp"

#include <cerrno>
#include <cstring>

namespace dlock {
namespace {

volatile sig_atomic_t g_caught = 0;

extern "C" void record_signal(int signo) {
    if (g_caught == 0)
        g_caught = signo;
}

} // namespace

SignalLatch::SignalLatch(std::initializer_list<int> signals) {
    g_caught = 0;
    struct sigaction catcher {};
    catcher.sa_handler = record_signal;
    catcher.sa_flags = SA_RESTART;
    sigemptyset(&catcher.sa_mask);
    for (int signo : signals) {
        struct sigaction old {};
        if (sigaction(signo, nullptr, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;
        if (sigaction(signo, &catcher, nullptr) == 0)
            previous_.emplace_back(signo, old);
    }
}

SignalLatch::~SignalLatch() {
    (void)restore(); // a failure was logged; nothing more to do on the way out
}

int SignalLatch::caught() const {
    return g_caught;
}

bool SignalLatch::restore() {
    bool all = true;
    for (const auto& [signo, old] : previous_) {
        if (sigaction(signo, &old, nullptr) != 0) {
            log::warn("cannot restore the action of SIG{}: {}", signal_name(signo),
                      std::strerror(errno));
            all = false;
        }
    }
    previous_.clear();
    return all;
}

int SignalLatch::reraise() {
    const int signo = g_caught;
    // With our handler still in place, the signal would only be recorded again: end with the
    // status that says which signal it was instead.
    if (restore() && signo != 0)
        raise(signo);
    return exit_code::signal_base + signo;
}

} // namespace dlock
