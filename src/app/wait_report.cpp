#include "app/wait_report.hpp"

#include "app/run_report.hpp"
#include "lock/describe.hpp"
#include "util/log.hpp"
#include "util/signal_free_thread.hpp"
#include "util/text.hpp"

#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace dlock::app {
namespace {

using std::chrono::duration_cast;

// Room left on the line for the "... 1h02m" after the description.
constexpr size_t kElapsedRoom = 12;
constexpr auto kTick = std::chrono::seconds(1);

// The terminal's width in columns; 0 when unknown.
size_t terminal_columns() {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

void write_stderr(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace

WaitReport::WaitReport() : in_place_(isatty(STDERR_FILENO) && log::plain_warnings_on_stderr()) {}

WaitReport::~WaitReport() {
    ended(false);
}

void WaitReport::waiting(const std::string& name, const lock::AcquireOutcome& last) {
    if (shown_ && name == name_)
        return;
    ended(true); // a wait for an earlier name, which was taken
    if (!in_place_ && !log::enabled(log::Level::info))
        return;
    name_ = name;
    started_ = Clock::now();
    shown_ = true;
    const std::string what = fmt::format("waiting for {}: {}", name, why_refused(last));
    if (!in_place_) {
        log::info("{}", what);
        return;
    }
    line_ = "dlock: " + one_line(what);
    if (const size_t columns = terminal_columns(); columns > kElapsedRoom + 10)
        line_ = lock::cut(line_, columns - 1 - kElapsedRoom);
    write_stderr(line_ + "...");
    stopping_ = false;
    ticker_ = signal_free_thread([this] { tick_until_stopped(); });
}

void WaitReport::ended(bool acquired) {
    if (!shown_)
        return;
    shown_ = false;
    if (!in_place_) {
        const auto waited = format_duration(duration_cast<Millis>(Clock::now() - started_));
        log::info("waited {} for {}: {}", waited, name_, acquired ? "acquired" : "gave up");
        return;
    }
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wakeup_.notify_all();
    ticker_.join();
    draw(true);
}

void WaitReport::tick_until_stopped() {
    std::unique_lock lock(mutex_);
    while (!wakeup_.wait_for(lock, kTick, [this] { return stopping_; }))
        draw(false);
}

void WaitReport::draw(bool last) {
    // Rewritten from the start of the line: the elapsed time only grows, so nothing is left over.
    write_stderr(fmt::format("\r{}... {}{}", line_, elapsed(), last ? "\n" : ""));
}

std::string WaitReport::elapsed() const {
    return lock::format_age(duration_cast<Millis>(Clock::now() - started_));
}

} // namespace dlock::app
