#include "util/signals.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dlock;

TEST_CASE("signals parse by name, SIG name, any case or number", "[signals]") {
    for (auto text : {"TERM", "SIGTERM", "term", "sigterm", "SigTerm", "15"}) {
        INFO(text);
        CHECK(parse_signal(text).value() == SIGTERM);
    }
    CHECK(parse_signal("KILL").value() == SIGKILL);
    CHECK(parse_signal("HUP").value() == SIGHUP);
    CHECK(parse_signal("usr1").value() == SIGUSR1);
    CHECK(parse_signal("SIGWINCH").value() == SIGWINCH);
    CHECK(parse_signal("1").value() == 1);
    CHECK(parse_signal(std::to_string(NSIG - 1)).value() == NSIG - 1);
}

TEST_CASE("unknown signals and out-of-range numbers are usage errors", "[signals]") {
    const std::string too_big = std::to_string(NSIG);
    for (std::string bad : {"", "0", "-1", "-15", too_big.c_str(), "99999999999", "SIG", "FOO",
                            "SIGFOO", "15x", " TERM", "TERM ", "+15", "SIG15"}) {
        INFO("'" << bad << "'");
        auto r = parse_signal(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.find("invalid signal") != std::string::npos);
    }
}

TEST_CASE("signal names are the short names and round-trip through the parser", "[signals]") {
    CHECK(signal_name(SIGTERM) == "TERM");
    CHECK(signal_name(SIGKILL) == "KILL");
    CHECK(signal_name(SIGUSR2) == "USR2");
    for (int signo : {SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGKILL, SIGUSR1, SIGSEGV, SIGPIPE, SIGALRM,
                      SIGTERM, SIGCONT, SIGSTOP, SIGTSTP, SIGWINCH}) {
        INFO(signo);
        CHECK(parse_signal(signal_name(signo)).value() == signo);
    }
}

TEST_CASE("unnamed signal numbers are shown as 'signal N'", "[signals]") {
    CHECK(signal_name(SIGRTMIN + 1) == "signal " + std::to_string(SIGRTMIN + 1));
    CHECK(signal_name(0) == "signal 0");
}
