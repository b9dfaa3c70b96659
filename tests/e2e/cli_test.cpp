// --version, --help and the verbosity flags.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Never the system Redis: anything that would connect gets a socket that does not exist.
const std::string kNowhere = "unix:///nonexistent/dlock-e2e.sock";

} // namespace

TEST_CASE("dlock --version prints the version and exits 0", "[e2e][cli]") {
    auto r = run_raw({"--redis", kNowhere, "--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("dlock ", 0) == 0);
    CHECK(lines(r.out).size() == 1);
    CHECK(r.err.empty());
    // Alone, it skips the parser: the same line as through it.
    auto alone = run_raw({"--version"});
    CHECK(alone.exit_code == 0);
    CHECK(alone.out == r.out);
    CHECK(alone.err.empty());
}

TEST_CASE("dlock --help exits 0 and documents the exit statuses", "[e2e][cli]") {
    for (const std::string flag : {"--help", "-h"}) {
        auto r = run_raw({"--redis", kNowhere, flag});
        INFO(flag);
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(r.out.find("run") != std::string::npos);
        CHECK(r.out.find("--redis") != std::string::npos);
        CHECK(r.out.find("Exit status") != std::string::npos);
        CHECK(r.out.find("128+N") != std::string::npos);
        for (const std::string code : {"75", "76", "64", "69", "70", "126", "127"}) {
            INFO("exit status " << code);
            CHECK(r.out.find("\n  " + code + " ") != std::string::npos);
        }
    }
    auto r = run_raw({"--redis", kNowhere, "run", "--help"});
    CHECK(r.exit_code == 0);
    for (const std::string option : {"--wait", "--no-wait", "--conflict-exit-code", "--ttl",
                                     "--kill-after", "--lost-signal", "--command"})
        CHECK(r.out.find(option) != std::string::npos);
}

TEST_CASE("verbose output: -v reports acquiring and releasing and -vv renewals", "[e2e][cli]") {
    REQUIRE_REDIS(server);
    auto quiet = run(*server, {"run", "job", "-c", "echo out"});
    CHECK(quiet.err.empty());

    auto v = run(*server, {"-v", "run", "job", "-c", "echo $DLOCK_FENCING_TOKEN"});
    INFO("stderr: " << v.err);
    CHECK(v.exit_code == 0);
    CHECK(lines(v.out).size() == 1); // only the command's output
    CHECK(v.err.find("dlock: acquired job (token " + trim(v.out)) != std::string::npos);
    CHECK(v.err.find("released job") != std::string::npos);

    auto vv = run(*server, {"-vv", "run", "--ttl", "1s", "job", "-c", "sleep 0.6"});
    INFO("stderr: " << vv.err);
    CHECK(vv.exit_code == 0);
    CHECK(vv.out.empty());
    CHECK(vv.err.find("debug") != std::string::npos);
    CHECK(vv.err.find("lease renewed") != std::string::npos);
}

TEST_CASE("a -c STRING starting with - or + is the shell command, not options of sh's",
          "[e2e][run][shell]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Without `sh -c --`, `-e` made sh read its commands from stdin, and `+x` was an option too.
    for (const std::string word : {"-e", "+x"}) {
        INFO(word);
        write_file(dir / word, "#!/bin/sh\necho \"ran $1 $2\"\n", 0755);
        auto r = run(*server, {"run", "job", "-c", word + " arg \"$1\"", "--", "one"},
                     {{"PATH", dir.path() + ":/usr/bin:/bin"}}, 20s);
        CHECK(r.exit_code == 0);
        CHECK(r.out == "ran arg one\n");
        CHECK(r.err.empty());
    }
}
