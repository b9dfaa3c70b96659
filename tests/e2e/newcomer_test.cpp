// What tripped a new user: command lines that meant something else than they said get a message
// that says what was understood and what to type instead, exit 64, and nothing in Redis.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// `dlock ARGS` against `server` exits 64 with exactly `message`, and Redis stays empty.
void check_refused(const RedisServer& server, const std::vector<std::string>& args,
                   const std::string& message) {
    auto r = run(server, args);
    std::string shown;
    for (const auto& a : args)
        shown += "[" + a + "] ";
    INFO("dlock " << shown);
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: " + message + "\n");
    CHECK(dbsize(server) == 0);
}

} // namespace

TEST_CASE("a name after -c STRING is refused: sh -c habits make it an argument",
          "[e2e][usage][newcomer]") {
    REQUIRE_REDIS(server);
    check_refused(*server, {"run", "job", "-c", "echo hi", "extra"},
                  "'extra' after -c STRING is not an argument of the command (as with sh -c) but "
                  "one more lock name: give every name before -c, and the command's arguments "
                  "after --: dlock run NAME... -c STRING -- ARG...");
    // Names on one side of -c are names; arguments go after --.
    TempDir dir;
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "-c", "echo \"$1\" >>\"$2\"", "job", "--", "one", dir / "out"},
             {"run", "a", "b", "-c", "echo \"$1\" >>\"$2\"", "--", "two", dir / "out"}}) {
        auto r = run(*server, args);
        INFO(r.err);
        CHECK(r.exit_code == 0);
    }
    CHECK(read_file(dir / "out") == "one\ntwo\n");
}

TEST_CASE("a name taken as -w's duration is named as such", "[e2e][usage][newcomer]") {
    REQUIRE_REDIS(server);
    check_refused(*server, {"run", "-w", "job", "--", "true"},
                  "NAME is required: -w took 'job' as its DURATION, and it is not one (e.g. dlock "
                  "run -w 30s NAME ...)");
    check_refused(*server, {"sem", "run", "-p", "2", "--timeout", "pool", "--", "true"},
                  "NAME is required: --timeout took 'pool' as its DURATION, and it is not one "
                  "(e.g. dlock sem run --timeout 30s NAME ...)");
}

TEST_CASE("an unknown short option gets a did-you-mean, and a run option of another subcommand "
          "says whose it is",
          "[e2e][usage][newcomer]") {
    REQUIRE_REDIS(server);
    check_refused(*server, {"run", "-W", "5s", "job", "--", "true"},
                  "unknown option '-W': did you mean -w? (see dlock run --help)");
    check_refused(*server, {"sem", "run", "--once-per", "1h", "-p", "2", "pool", "--", "true"},
                  "--once-per is not supported for semaphores (sem run): it is an option of "
                  "dlock run");
    check_refused(*server, {"sem", "run", "-s", "-p", "2", "pool", "--", "true"},
                  "-s is not supported for semaphores (sem run): it is an option of dlock run and "
                  "dlock acquire");
    auto r = run(*server, {"acquire", "-c", "true", "job"});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: -c is not supported by acquire: it is an option of dlock run and dlock "
                   "sem run\n");
}

TEST_CASE("a run option in the config file is sent to the command line", "[e2e][usage][newcomer]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto config = write_file(dir / "dlock.conf", "ttl = 5m\n", 0600);
    auto r = run(*server, {"run", "job", "--", "touch", dir / "ran"}, {{"DLOCK_CONFIG", config}});
    CHECK(r.exit_code == 64);
    CHECK(r.err ==
          "dlock: " + config +
              ":1: unknown key 'ttl' (a config file holds the global settings that dlock "
              "config lists; options of run such as --ttl or -w go on its command line)\n");
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("a schedule shown back is one that can be given again", "[e2e][once-per][newcomer]") {
    REQUIRE_REDIS(server);
    REQUIRE(run(*server, {"run", "--once-per", "366d", "job", "--", "true"}).exit_code == 0);
    auto r =
        run(*server, {"-v", "run", "--once-per", "1h", "--offset=-1999ms", "job", "--", "true"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("under --once-per 366d --offset=0s; this run uses --once-per 1h "
                     "--offset=-1s999ms, so that mark does not count") != std::string::npos);
}

TEST_CASE("the quick start works on a host whose config names a password, and says what failed",
          "[e2e][newcomer][slow]") {
    TempDir dir;
    write_file(dir / "password", "s3cret\n", 0600);
    // The README's config step: the host's Redis (here: one that does not answer) and its password.
    const std::string config =
        write_file(dir / "dlock.conf",
                   "redis = redis://127.0.0.1:1\npassword-file = " + (dir / "password") + "\n");
    const std::string script = std::string(DLOCK_SOURCE_DIR) + "/scripts/quickstart.sh";
    Process demo({script},
                 clean_env({{"DLOCK", dlock_binary()},
                            {"DLOCK_SYSTEM_CONFIG", config},
                            {"DLOCK_REDIS_URL", "redis://127.0.0.1:1"}}),
                 "/bin/sh");
    auto r = demo.wait(60s);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 0);
    // Why the host's Redis was not used, in dlock's own words, then the two hosts' outcomes.
    CHECK(contains(r.out,
                   "No usable Redis at redis://127.0.0.1:1 (cannot reach Redis at 127.0.0.1:1"));
    CHECK(contains(r.out, "started a private one at unix://"));
    CHECK(contains(r.out, "dlock exited with 0"));
    CHECK(contains(r.out, "dlock exited with 75"));
}

TEST_CASE("a lease shorter than a chosen reply timeout is refused, and one shorter than two is "
          "said with -v",
          "[e2e][usage][newcomer]") {
    REQUIRE_REDIS(server);
    check_refused(*server, {"--redis-timeout", "5s", "run", "--ttl", "2s", "job", "--", "true"},
                  "--ttl 2s is shorter than --redis-timeout 5s (--redis-timeout): one slow reply "
                  "to a renewal would lose the lease; give --ttl 10s or more, or a shorter "
                  "--redis-timeout");
    // The default reply timeout with a short lease: allowed, and said where someone reads it.
    auto quiet = run(*server, {"run", "--ttl", "1s", "job", "--", "true"});
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    auto told = run(*server, {"-v", "run", "--ttl", "3s", "job", "--", "true"});
    INFO(told.err);
    CHECK(told.exit_code == 0);
    CHECK(contains(told.err, "--ttl 3s is less than twice --redis-timeout 2s: one slow reply to "
                             "a renewal could lose the lease (give --redis-timeout 1.5s or less)"));
}
