#pragma once

#include "support/dlock_process.hpp"

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

// A program run on a new pseudo-terminal as its controlling terminal (a session of its own),
// as a user at a terminal runs it: keys written here go through the terminal's line discipline,
// so "\x03" is Ctrl-C (SIGINT to the foreground process group) and "\x1a" is Ctrl-Z.
class PtySession {
  public:
    PtySession(std::vector<std::string> argv, const Env& env, unsigned short columns = 120);
    ~PtySession(); // SIGKILLs the session's processes still running
    PtySession(const PtySession&) = delete;
    PtySession& operator=(const PtySession&) = delete;

    pid_t pid() const { return pid_; }
    void type(const std::string& keys) const;
    // Resizes the window, as a user dragging its edge (the program gets SIGWINCH).
    void resize(unsigned short columns) const;
    // Everything the terminal has shown so far (read without blocking).
    const std::string& output();
    // Waits until the output contains `text`.
    bool await_output(const std::string& text,
                      std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Waits for the program to exit; its exit code (128+N for signal N), or -1 on timeout.
    int wait(std::chrono::milliseconds timeout = std::chrono::seconds(10));

  private:
    pid_t pid_ = -1;
    int master_ = -1;
    bool reaped_ = false;
    std::string output_;
};

// The state letter of /proc/PID/stat ('R', 'S', 'T' for stopped, 'Z'...), or 0 when gone.
char process_state(pid_t pid);

} // namespace dlock::test
