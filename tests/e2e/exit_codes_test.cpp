// Exit statuses of `dlock run` when the lock is obtained: the command's own status, 128+N for
// a command killed by signal N, 126/127 when it cannot be run. The lock never outlives the run.

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("the command's exit status is passed through", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    const int code = GENERATE(0, 1, 3, 42, 100, 255);
    auto r = run(*server, {"run", "job", "--", "sh", "-c", "exit " + std::to_string(code)});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == code);
    CHECK(r.err.empty());
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("run -c runs a shell command and passes its status through", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "job", "-c", "echo hello; exit 7"});
    CHECK(r.exit_code == 7);
    CHECK(r.out == "hello\n");
    CHECK(r.err.empty());
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a command killed by signal N gives 128+N", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    auto [signame, signo] = GENERATE(table<std::string, int>({
        {"TERM", SIGTERM},
        {"KILL", SIGKILL},
        {"USR1", SIGUSR1},
        {"INT", SIGINT},
        {"ABRT", SIGABRT},
    }));
    INFO("signal " << signame);
    // The shell kills itself (only itself: the signal is not sent to dlock or the group).
    auto r = run(*server, {"run", "job", "--", "sh", "-c", "kill -s " + signame + " $$; sleep 5"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 128 + signo);
    CHECK(r.elapsed < 5s);
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a command that is not executable gives 126", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string script = dir / "script.sh";
    std::ofstream(script) << "#!/bin/sh\nexit 0\n";
    REQUIRE(chmod(script.c_str(), 0644) == 0);

    SECTION("a regular file without execute permission") {
        auto r = run(*server, {"run", "job", "--", script});
        CHECK(r.exit_code == 126);
        CHECK(r.err.find(script) != std::string::npos);
        CHECK(one_dlock_line(r.err));
    }
    SECTION("a directory") {
        auto r = run(*server, {"run", "job", "--", dir.path()});
        CHECK(r.exit_code == 126);
        CHECK(one_dlock_line(r.err));
    }
    // The lease taken for it is released again.
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("a command that does not exist gives 127", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    SECTION("not on PATH") {
        auto r = run(*server, {"run", "job", "--", "dlock-e2e-no-such-command", "arg"});
        CHECK(r.exit_code == 127);
        CHECK(r.err.find("dlock-e2e-no-such-command") != std::string::npos);
        CHECK(one_dlock_line(r.err));
    }
    SECTION("an absolute path") {
        auto r = run(*server, {"run", "job", "--", "/nonexistent/dir/cmd"});
        CHECK(r.exit_code == 127);
        CHECK(r.err.find("/nonexistent/dir/cmd") != std::string::npos);
        CHECK(one_dlock_line(r.err));
    }
    SECTION("through the shell with -c (the shell's own 127)") {
        auto r = run(*server, {"run", "job", "-c", "dlock-e2e-no-such-command"});
        CHECK(r.exit_code == 127);
    }
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("the command's output reaches dlock's stdout and stderr", "[e2e][exit]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "job", "-c", "echo to-out; echo to-err >&2"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "to-out\n");
    CHECK(r.err == "to-err\n");
}
