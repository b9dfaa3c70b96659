#include "app/wait_report.hpp"

#include "app/run_report.hpp"
#include "lock/describe.hpp"
#include "util/display_width.hpp"
#include "util/log.hpp"
#include "util/signal_free_thread.hpp"
#include "util/text.hpp"

#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace dlock::app {
namespace {

using std::chrono::duration_cast;

// Below this width the line would say too little to be worth rewriting: nothing is drawn.
constexpr size_t kMinColumns = 40;
constexpr auto kTick = std::chrono::seconds(1);

// The terminal's width in columns, read at every draw so a resized window is followed; 0 when
// unknown.
size_t terminal_columns() {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

// A job put in the background (`&`, Ctrl-Z then bg) must not write over the shell's prompt.
bool in_foreground() {
    return tcgetpgrp(STDERR_FILENO) == getpgrp();
}

// `line` then the elapsed time, cut so both fit in `columns` - 1 (the last column would wrap).
std::string fitted(const std::string& line, const std::string& elapsed, size_t columns) {
    const size_t room = columns - 1 - (elapsed.size() + 1);
    if (line.size() + 3 <= room)
        return line + "... " + elapsed;
    return lock::cut(line, room) + " " + elapsed; // cut ends with its own "..."
}

void write_stderr(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace

// At -v the log lines would run into a line rewritten in place: a terminal gets them instead.
WaitReport::WaitReport()
    : in_place_(isatty(STDERR_FILENO) && log::plain_warnings_on_stderr() &&
                !log::enabled(log::Level::info)) {}

WaitReport::~WaitReport() {
    ended(false);
}

void WaitReport::waiting(const std::string& name, const lock::AcquireOutcome& last) {
    if (shown_ && name == name_) {
        if (in_place_)
            replace_line(why_refused(last)); // the holder may have changed or finished
        return;
    }
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
    why_ = why_refused(last);
    drawn_length_ = 0;
    draw(false);
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

void WaitReport::replace_line(const std::string& why) {
    std::lock_guard lock(mutex_);
    if (why == why_)
        return;
    why_ = why;
    line_ = "dlock: " + one_line(fmt::format("waiting for {}: {}", name_, why));
    draw(false);
}

void WaitReport::draw(bool last) {
    if (!in_foreground())
        return;
    const size_t columns = terminal_columns();
    if (columns < kMinColumns) {
        if (last && drawn_length_ > 0)
            write_stderr("\n"); // a line drawn while the window was wider still needs its end
        return;
    }
    std::string text = fitted(line_, elapsed(), columns);
    const size_t length = display_width(text);
    // Rewritten from the start of the line; spaces cover what a longer line left over.
    if (length < drawn_length_)
        text.append(std::min(drawn_length_, columns - 1) - length, ' ');
    drawn_length_ = length;
    write_stderr("\r" + text + (last ? "\n" : ""));
}

std::string WaitReport::elapsed() const {
    return lock::format_age(duration_cast<Millis>(Clock::now() - started_));
}

} // namespace dlock::app
