// process::spawn when the vfork child cannot be set up: the command must not run, and the
// parent says which step failed. A seccomp filter (in a forked test process) makes one system
// call of the child fail.

#include "process/spawn.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
constexpr unsigned kArch = 0;
#endif

constexpr int kNoSeccomp = 77;

// From now on, this process and its children get EPERM from prctl(`option`, ...).
bool refuse_prctl(int option) {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(option), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
    return kArch != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

} // namespace

TEST_CASE("a child that cannot arm PDEATHSIG does not run the command, and says why", "[spawn]") {
    char marker[] = "/tmp/dlock-spawn-test-XXXXXX";
    REQUIRE(mkdtemp(marker) != nullptr);
    const std::string ran = std::string(marker) + "/ran";
    int out[2];
    REQUIRE(pipe(out) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) { // the filter stays in this process, not in the test runner
        close(out[0]);
        if (!refuse_prctl(PR_SET_PDEATHSIG))
            _exit(kNoSeccomp);
        dlock::process::SpawnOptions options;
        options.argv = {"/bin/sh", "-c", "touch \"$0\"", ran};
        sigemptyset(&options.child_mask);
        const auto spawned = dlock::process::spawn(options);
        const std::string report =
            spawned ? "spawned"
                    : std::to_string(dlock::exit_code::of(spawned.error().fault)) + " " +
                          spawned.error().message;
        (void)!write(out[1], report.data(), report.size());
        _exit(0);
    }
    close(out[1]);
    std::string report;
    char buffer[256];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;)
        report.append(buffer, static_cast<size_t>(n));
    close(out[0]);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    usleep(100'000); // a command that did run has had time to leave its mark
    const bool command_ran = access(ran.c_str(), F_OK) == 0;
    unlink(ran.c_str());
    rmdir(marker);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kNoSeccomp) {
        WARN("seccomp filters are not available here: skipped");
        return;
    }
    CHECK(WIFEXITED(status));
    CHECK(report == "70 cannot start the command: prctl(PR_SET_PDEATHSIG): " +
                        std::string(std::strerror(EPERM)));
    CHECK_FALSE(command_ran);
}
