#include "support/dlock_process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace dlock::test {

std::string dlock_binary() {
    return DLOCK_BINARY;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool pid_alive(pid_t pid) {
    return kill(pid, 0) == 0;
}

std::vector<std::string> child_environment(const Env& env) {
    std::map<std::string, std::string> merged;
    for (char** e = environ; *e; ++e) {
        std::string kv = *e;
        auto eq = kv.find('=');
        merged[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
    }
    for (auto& [k, v] : env) {
        if (v == "\x01unset")
            merged.erase(k);
        else
            merged[k] = v;
    }
    std::vector<std::string> out;
    for (auto& [k, v] : merged)
        out.push_back(k + "=" + v);
    return out;
}

std::vector<char*> exec_vector(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

Process::Process(std::vector<std::string> args, Env env, std::string program) {
    char tmpl[] = "/tmp/dlock-proc-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    dir_ = tmpl;
    if (program.empty())
        program = dlock_binary();
    args.insert(args.begin(), program);

    std::vector<std::string> env_strings = child_environment(env);
    std::vector<char*> argv = exec_vector(args), envp = exec_vector(env_strings);

    const std::string out = dir_ + "/out", err = dir_ + "/err";
    started_ = std::chrono::steady_clock::now();
    pid_ = fork();
    if (pid_ == 0) {
        // A job of its own, as cron or a shell with job control starts one: what stops a
        // `dlock acquire` hold (its owner's process group) never reaches the test runner.
        setpgid(0, 0);
        // Close-on-exec: only the copies on 0-2 reach the process (a test counts its fds).
        dup2(open("/dev/null", O_RDONLY | O_CLOEXEC), 0);
        dup2(open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), 1);
        dup2(open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), 2);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    REQUIRE(pid_ > 0);
}

Process::~Process() {
    if (!reaped_ && pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void Process::signal(int signo) const {
    kill(pid_, signo);
}

bool Process::running() {
    if (reaped_)
        return false;
    rusage usage{};
    if (wait4(pid_, &status_, WNOHANG, &usage) == pid_) {
        reaped_ = true;
        max_rss_kb_ = usage.ru_maxrss;
    }
    return !reaped_;
}

std::string Process::out() const {
    return read_file(dir_ + "/out");
}
std::string Process::err() const {
    return read_file(dir_ + "/err");
}

ProcessResult Process::wait(std::chrono::milliseconds timeout) {
    if (!eventually([&] { return !running(); }, timeout)) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
        reaped_ = true;
        FAIL("process did not finish within " << timeout.count() << " ms; stderr: " << err());
    }
    ProcessResult r;
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_);
    r.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    r.term_signal = WIFSIGNALED(status_) ? WTERMSIG(status_) : 0;
    r.max_rss_kb = max_rss_kb_;
    r.out = out();
    r.err = err();
    return r;
}

ProcessResult run_dlock(std::vector<std::string> args, Env env, std::chrono::milliseconds timeout) {
    Process p(std::move(args), std::move(env));
    return p.wait(timeout);
}

} // namespace dlock::test
