#include "util/signals.hpp"

#include "util/exit_codes.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <charconv>
#include <csignal>
#include <fmt/format.h>
#include <sys/resource.h>
#include <utility>

namespace dlock {
namespace {

constexpr std::array<std::pair<std::string_view, int>, 20> kSignals{{
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},   {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"USR1", SIGUSR1},
    {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
    {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"XCPU", SIGXCPU}, {"WINCH", SIGWINCH},
}};

std::atomic<void (*)()> before_dying{nullptr};

} // namespace

Result<int> parse_signal(std::string_view text) {
    int number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec == std::errc() && end == text.data() + text.size()) {
        if (number >= 1 && number < NSIG)
            return number;
        return usage_error(
            fmt::format("invalid signal {}: out of range 1-{}", quote(text), NSIG - 1));
    }
    std::string upper(text);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::string_view name = upper;
    if (name.starts_with("SIG"))
        name.remove_prefix(3);
    for (auto [candidate, signo] : kSignals)
        if (candidate == name)
            return signo;
    return usage_error(
        fmt::format("invalid signal {}: expected a name like TERM or a number", quote(text)));
}

std::string signal_name(int signo) {
    for (auto [name, number] : kSignals)
        if (number == signo)
            return std::string(name);
    return fmt::format("signal {}", signo);
}

void set_before_dying(void (*hook)()) {
    before_dying.store(hook);
}

int die_of_signal(int signo, bool whole_group) {
    if (auto* hook = before_dying.load())
        hook();
    // The command's core dump (if any) is what matters, not ours.
    const rlimit no_core{0, 0};
    (void)setrlimit(RLIMIT_CORE, &no_core);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    // Should either fail (bad arguments only), the signal might not end us: the status says it.
    if (sigaction(signo, &dfl, nullptr) != 0 || pthread_sigmask(SIG_UNBLOCK, &set, nullptr) != 0)
        return exit_code::signal_base + signo;
    if (whole_group)
        kill(0, signo);
    raise(signo);
    return exit_code::signal_base + signo;
}

} // namespace dlock
