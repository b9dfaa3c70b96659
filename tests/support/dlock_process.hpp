#pragma once

#include <chrono>
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dlock::test {

using Env = std::map<std::string, std::string>;

struct ProcessResult {
    int exit_code = -1;   // 128+N when killed by signal N
    std::string out, err; // captured stdout / stderr
    std::chrono::milliseconds elapsed{0};
    int term_signal = 0; // the signal that killed it, 0 if it exited
    long max_rss_kb = 0; // its peak resident set (wait4's ru_maxrss), in KiB
};

// The dlock binary under test (built by CMake next to the tests).
std::string dlock_binary();

// A child process (the dlock binary unless `program` is given) with stdout/stderr captured to
// files. `env` entries are added to (or replace) the test's environment; a value of "\x01unset"
// removes the variable.
class Process {
  public:
    explicit Process(std::vector<std::string> args, Env env = {}, std::string program = "");
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    pid_t pid() const { return pid_; }
    void signal(int signo) const;
    bool running();
    // Waits up to `timeout`; on timeout the process is SIGKILLed and the test fails.
    ProcessResult wait(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    std::string out() const; // what it has written so far
    std::string err() const;

  private:
    pid_t pid_ = -1;
    std::string dir_;
    std::chrono::steady_clock::time_point started_;
    bool reaped_ = false;
    int status_ = 0;
    long max_rss_kb_ = 0;
};

// The environment of a child process ("NAME=value" strings): the test's own with `env` applied,
// as Process applies it.
std::vector<std::string> child_environment(const Env& env);

// Pointers to `strings` followed by a null one, as execve takes them; valid while `strings` is.
std::vector<char*> exec_vector(std::vector<std::string>& strings);

// Runs dlock to completion.
ProcessResult run_dlock(std::vector<std::string> args, Env env = {},
                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Polls `predicate` every `interval` until it holds or `timeout` passes; returns its last value.
template <typename F>
bool eventually(F predicate, std::chrono::milliseconds timeout = std::chrono::seconds(10),
                std::chrono::milliseconds interval = std::chrono::milliseconds(10));

std::string read_file(const std::string& path);
bool pid_alive(pid_t pid);

} // namespace dlock::test

#include <thread>

template <typename F>
bool dlock::test::eventually(F predicate, std::chrono::milliseconds timeout,
                             std::chrono::milliseconds interval) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (predicate())
            return true;
        std::this_thread::sleep_for(interval);
    }
    return predicate();
}
