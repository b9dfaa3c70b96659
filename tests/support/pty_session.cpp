#include "support/pty_session.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace dlock::test {

PtySession::PtySession(std::vector<std::string> argv, const Env& env, unsigned short columns) {
    std::vector<std::string> env_strings = child_environment(env);
    std::vector<char*> args = exec_vector(argv), envp = exec_vector(env_strings);

    winsize size{24, columns, 0, 0};
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int s : {SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE})
            signal(s, SIG_DFL);
        execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    REQUIRE(pid_ > 0);
    fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
    fcntl(master_, F_SETFD, FD_CLOEXEC);
}

PtySession::~PtySession() {
    if (!reaped_) {
        kill(-pid_, SIGKILL);
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    close(master_);
}

void PtySession::type(const std::string& keys) const {
    REQUIRE(write(master_, keys.data(), keys.size()) == static_cast<ssize_t>(keys.size()));
}

void PtySession::resize(unsigned short columns) const {
    winsize size{24, columns, 0, 0};
    REQUIRE(ioctl(master_, TIOCSWINSZ, &size) == 0);
}

const std::string& PtySession::output() {
    char buf[4096];
    ssize_t n;
    while ((n = read(master_, buf, sizeof buf)) > 0)
        output_.append(buf, static_cast<size_t>(n));
    return output_;
}

bool PtySession::await_output(const std::string& text, std::chrono::milliseconds timeout) {
    return eventually([&] { return output().find(text) != std::string::npos; }, timeout);
}

int PtySession::wait(std::chrono::milliseconds timeout) {
    int status = 0;
    const bool done = eventually(
        [&] {
            output(); // keep the terminal drained so the program never blocks writing
            return waitpid(pid_, &status, WNOHANG) == pid_;
        },
        timeout);
    if (!done)
        return -1;
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

char process_state(pid_t pid) {
    auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    auto paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 2 >= stat.size())
        return 0;
    return stat[paren + 2];
}

} // namespace dlock::test
