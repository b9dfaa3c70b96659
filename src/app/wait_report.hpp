#pragma once

#include "lock/backend.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dlock::app {

// Shows a wait of `dlock run -w` while it lasts. At a terminal, at the default log level (not
// -q, -v, -vv, JSON, syslog): one line saying what it waits for, whose elapsed time a thread of
// its own rewrites in place once a second (no Redis call), ended with a newline when the wait
// ends, so the next line starts on a fresh line. The line is cut to the terminal's width, and
// not drawn at all while the window is too narrow or the job is in the background. Elsewhere
// (cron mail) and at -v: a log line when a wait starts and one when it ends.
class WaitReport {
  public:
    WaitReport();  // decides from stderr and the log settings
    ~WaitReport(); // a wait still shown ended without the name
    WaitReport(const WaitReport&) = delete;
    WaitReport& operator=(const WaitReport&) = delete;

    // True when the wait is shown in place at a terminal.
    bool in_place() const { return in_place_; }
    // Called before every block of a wait for `name`: the first call starts showing it (after
    // ending a wait for another name, which was acquired).
    void waiting(const std::string& name, const lock::AcquireOutcome& last);
    // The wait shown, if any, ended: the name was `acquired`, or not.
    void ended(bool acquired);

  private:
    using Clock = std::chrono::steady_clock;

    void tick_until_stopped();
    void replace_line(const std::string& why);
    void draw(bool last);
    std::string elapsed() const;

    bool in_place_ = false;
    bool shown_ = false; // a wait is being shown
    std::string name_;
    std::string line_;        // in place: "dlock: waiting for NAME: held by ..."
    std::string why_;         // what line_ says of the holder, to notice when it changes
    size_t drawn_length_ = 0; // characters of the line last drawn, to be covered by a shorter one
    Clock::time_point started_;

    std::mutex mutex_; // guards stopping_, the line and stderr between the thread and the rest
    std::condition_variable wakeup_;
    bool stopping_ = false;
    std::thread ticker_;
};

} // namespace dlock::app
