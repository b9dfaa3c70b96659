#include "util/signal_latch.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dlock;

namespace {

void (*handler_of(int signo))(int) {
    struct sigaction current {};
    sigaction(signo, nullptr, &current);
    return current.sa_handler;
}

} // namespace

TEST_CASE("a signal latch records the first signal instead of dying of it", "[signal_latch]") {
    REQUIRE(handler_of(SIGUSR1) == SIG_DFL);
    {
        SignalLatch latch{SIGUSR1, SIGUSR2};
        CHECK(latch.caught() == 0);
        raise(SIGUSR2);
        raise(SIGUSR1);
        CHECK(latch.caught() == SIGUSR2);
    }
    // The default action is back.
    CHECK(handler_of(SIGUSR1) == SIG_DFL);
    CHECK(handler_of(SIGUSR2) == SIG_DFL);
    // A new latch starts afresh.
    SignalLatch latch{SIGUSR1};
    CHECK(latch.caught() == 0);
}

TEST_CASE("a signal latch leaves ignored signals ignored", "[signal_latch]") {
    signal(SIGUSR1, SIG_IGN);
    {
        SignalLatch latch{SIGUSR1};
        CHECK(handler_of(SIGUSR1) == SIG_IGN);
        raise(SIGUSR1);
        CHECK(latch.caught() == 0);
        CHECK(latch.reraise() == 128); // nothing to re-raise
    }
    CHECK(handler_of(SIGUSR1) == SIG_IGN);
    signal(SIGUSR1, SIG_DFL);
}
