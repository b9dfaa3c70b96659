#include "util/signal_latch.hpp"

#include "util/exit_codes.hpp"

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
    restore();
}

int SignalLatch::caught() const {
    return g_caught;
}

void SignalLatch::restore() {
    for (const auto& [signo, old] : previous_)
        sigaction(signo, &old, nullptr);
    previous_.clear();
}

int SignalLatch::reraise() {
    const int signo = g_caught;
    restore();
    if (signo != 0)
        raise(signo);
    return exit_code::signal_base + signo;
}

} // namespace dlock
