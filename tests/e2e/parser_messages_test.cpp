// What the command-line parser says: in dlock's words, on one line, never with a password, and
// what --help shows for each subcommand.

#include "e2e/e2e_helpers.hpp"

#include <regex>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Never the system Redis: anything that would connect gets a socket that does not exist.
const std::string kNowhere = "unix:///nonexistent/dlock-e2e.sock";

ProcessResult run_nowhere(std::vector<std::string> args) {
    return run_raw(with_redis_url(kNowhere, std::move(args)));
}

// `dlock ARGS` (no --redis added) fails with exactly this line and exit 64.
void check_message(const std::vector<std::string>& args, const std::string& expected) {
    auto r = run_raw(args);
    std::string shown;
    for (const auto& a : args)
        shown += "[" + a + "] ";
    INFO("dlock " << shown);
    CHECK(r.exit_code == 64);
    CHECK(r.err == "dlock: " + expected + "\n");
}

} // namespace

TEST_CASE("a password in a misplaced URL is not echoed", "[e2e][usage][password]") {
    const std::string url = "redis://app:S3cret-pw@db.example:6380/2";
    const std::string unix_url = "unix://app:S3cret-pw@/nonexistent/dlock-e2e.sock";
    const std::vector<std::vector<std::string>> placements{
        {"run", "job", "--redis", url, "--", "true"},
        {"run", "job", "--redis=" + url, "--", "true"},
        {"run", "--redis", url, "job", "--", "true"},
        {"history", "job", "--redis", url},
        {"history", "job", "--redis", unix_url},
        {"status", "--json", "--redis", url},
        {"config", "--redis", url},
        {"bench", "--redis", url},
        {"latch", "wait", "job", url},
        {"latch", "create", "job", "3", url},
        {"latch", "create", "job", url},
        {"latch", "count-down", "job", url},
        {"--redis", "unix:///tmp/dlock-e2e.sock?password=S3cret-pw", "status"},
        {"--redis", "redis-sentinel://h1,h2?password=S3cret-pw", "status"},
        {"--redis", "redis://app:S3cret-pw@h1,redis://h2", "status"},
        {"latch", "create", "job", "3", "--ttl", url},
        {"sem", "run", "-p", "2", "pool", url, "--", "true"},
        {"sem", "status", "pool", url},
        {"release", "--force", "job", url},
        {url, "run", "job", "--", "true"},
        {"bogus", url},
        {"--prefix", url, "status"},
        {"--log-format", url, "status"},
        {"--connect-timeout", url, "status"},
        {"run", "-w", url, "job", "--", "true"},
        {"run", "-E", url, "job", "--", "true"},
        {"run", "--lost-signal", url, "job", "--", "true"},
        {"run", "job", "--password", "S3cret-pw", "--", "true"},
        {"run", "job", "--password=S3cret-pw", "--", "true"},
        {"--password", "S3cret-pw", "run", "job", "--", "true"},
        {"--password=S3cret-pw", "status"},
        {"status", "--redis-password", "S3cret-pw"},
        {"status", "--auth=S3cret-pw"},
    };
    for (const auto& args : placements) {
        auto r = run_raw(args);
        std::string shown;
        for (const auto& a : args)
            shown += "[" + a + "] ";
        INFO("dlock " << shown << "\nstderr: " << r.err);
        CHECK((r.exit_code == 64 || r.exit_code == 69));
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("S3cret") == std::string::npos);
        CHECK(r.out.find("S3cret") == std::string::npos);
    }
}

TEST_CASE("a misplaced URL's message shows it redacted", "[e2e][usage][password]") {
    check_message({"run", "job", "--redis=redis://app:S3cret@db:6380", "--", "true"},
                  "--redis is a global option: dlock '--redis=redis://***@db:6380' run ...");
    check_message({"latch", "wait", "job", "redis://:S3cret@db"},
                  "unexpected argument 'redis://***@db' (see dlock latch wait --help)");
    check_message({"run", "job", "--password=S3cret", "--", "true"},
                  "unexpected argument '--password=***' (see dlock run --help)");
    check_message({"--pasword=S3cret", "run", "job", "--", "true"},
                  "unexpected argument '--pasword=***' (see dlock --help)");
    check_message({"--redis", "app:S3cret@db:6379", "run", "job", "--", "true"},
                  "--redis: invalid Redis URL '***@db:6379': expected redis://, rediss://, "
                  "redis-sentinel://, rediss-sentinel:// or unix://");
    check_message({"--password", "S3cret", "status"},
                  "unexpected arguments '--password' '***' (see dlock --help)");
}

TEST_CASE("an unknown subcommand is named", "[e2e][usage]") {
    check_message({"bogus"}, "unknown subcommand 'bogus' (see dlock --help)");
    check_message({"--redis", kNowhere, "-v", "bogus", "job"},
                  "unknown subcommand 'bogus' (see dlock --help)");
    check_message({"--prefix", "run", "bogus"}, "unknown subcommand 'bogus' (see dlock --help)");
    check_message({"latch", "bogus", "job"},
                  "unknown subcommand 'latch bogus' (see dlock latch --help)");
    check_message({"sem", "bogus"}, "unknown subcommand 'sem bogus' (see dlock sem --help)");
    check_message({}, "missing subcommand: run, acquire, bench, latch, status, history, release, "
                      "sem, config, check, metrics, forget, pause or resume (see dlock --help)");
    check_message({"latch"}, "missing subcommand: create, count-down, wait or status (see dlock "
                             "latch --help)");
}

TEST_CASE("a global option after the subcommand gets the command line with it moved",
          "[e2e][usage]") {
    check_message({"run", "job", "--redis", kNowhere, "--", "true"},
                  "--redis is a global option: dlock --redis " + kNowhere + " run ...");
    check_message({"status", "-v"}, "-v is a global option: dlock -v status ...");
    check_message({"history", "job", "--prefix", "p"},
                  "--prefix is a global option: dlock --prefix p history ...");
    check_message({"latch", "status", "job", "--redis-timeout=1s"},
                  "--redis-timeout is a global option: dlock --redis-timeout=1s latch status ...");
    check_message({"run", "--redis-timeout", "5s", "-v", "job", "--", "true"},
                  "--redis-timeout and -v are global options: dlock --redis-timeout 5s -v run ...");
    // With an option that is neither the subcommand's nor global, only the general hint.
    check_message({"run", "--redis-timeout", "5s", "--bogus", "job", "--", "true"},
                  "unexpected arguments '--redis-timeout' '--bogus' (global options go before the "
                  "subcommand: dlock [global options] run ...)");
}

TEST_CASE("an option of the subcommand given before it gets a hint", "[e2e][usage]") {
    check_message({"-w", "5s", "run", "job", "--", "true"},
                  "-w is an option of run: dlock run -w 5s ...");
    check_message({"--wait=5s", "run", "job", "--", "true"},
                  "--wait is an option of run: dlock run --wait=5s ...");
    check_message({"-w", "5s", "--ttl", "1m", "-x", "run", "job", "--", "true"},
                  "-w, --ttl and -x are options of run: dlock run -w 5s --ttl 1m -x ...");
    check_message({"--redis", kNowhere, "-w", "5s", "-v", "run", "a", "b", "--", "true"},
                  "-w is an option of run: dlock run -w 5s ...");
    check_message({"-p", "2", "sem", "run", "pool", "--", "true"},
                  "-p is an option of sem run: dlock sem run -p 2 ...");
    check_message({"--json", "status"}, "--json is an option of status: dlock status --json ...");
    check_message({"-w", "1s", "latch", "wait", "job"},
                  "-w is an option of latch wait: dlock latch wait -w 1s ...");
    // A value that is no plain word is quoted, and a URL's password is never shown.
    check_message({"-c", "echo hi", "run", "job"},
                  "-c is an option of run: dlock run -c 'echo hi' ...");
    check_message({"-w", "redis://app:S3cret@db", "run", "job", "--", "true"},
                  "-w is an option of run: dlock run -w 'redis://***@db' ...");
    // Not an option of the subcommand named: no hint.
    check_message({"-w", "5s", "status"}, "unexpected arguments '-w' '5s' (see dlock --help)");
}

TEST_CASE("a run without '--' before its command says how to write it", "[e2e][usage]") {
    TempDir dir;
    const auto script = write_file(dir / "backup.sh", "#!/bin/sh\ntouch \"$0.ran\"\n", 0755);
    // An executable file, at its path or on PATH: the command starts there.
    check_message({"run", "job", script, "--full"},
                  "missing '--' before the command: dlock run job -- " + script + " --full");
    check_message({"run", "job", script},
                  "missing '--' before the command: dlock run job -- " + script);
    check_message({"run", "-w", "5s", "a", "b", "echo", "hi", "-w", "1"},
                  "missing '--' before the command: dlock run -w 5s a b -- echo hi -w 1");
    check_message({"sem", "run", "-p", "2", "pool", script, "--full"},
                  "missing '--' before the command: dlock sem run -p 2 pool -- " + script +
                      " --full");
    // A path followed by an option run does not know, even where no such file is.
    check_message({"run", "job", "./backup.sh", "--full"},
                  "missing '--' before the command: dlock run job -- ./backup.sh --full");
    // The global options stay where they are, a URL's password hidden.
    check_message({"--redis", "redis://app:S3cret@db", "-v", "run", "job", script, "a b"},
                  "missing '--' before the command: dlock --redis 'redis://***@db' -v run job -- " +
                      script + " 'a b'");
    CHECK_FALSE(file_exists(script + ".ran"));

    // Nothing that looks like a command: the plain messages.
    check_message({"run", "a", "b"}, "missing command: use run NAME... -- COMMAND [ARG...] or run "
                                     "NAME... -c 'shell command'");
    check_message({"run", "job", "no-such-program-here", "--full"},
                  "unexpected argument '--full' (see dlock run --help)");
    check_message({"run", "job", "--bogus", script},
                  "unexpected argument '--bogus' (see dlock run --help)");
    // Several names before "--" are fine, programs or not: no hint, the run goes on (to a
    // Redis that is not there).
    auto r = run_nowhere({"run", "job", "echo", "--", "true"});
    CHECK(r.exit_code == 69);
    CHECK(r.err.find("'--'") == std::string::npos);
}

TEST_CASE("a program's own -c is not taken for run's", "[e2e][usage]") {
    TempDir dir;
    const auto script = write_file(dir / "tool", "#!/bin/sh\ntouch \"$0.ran\"\n", 0755);
    // "bash -c '...'" without "--": the -c is the program's, whose name must not become a lock.
    check_message({"run", "job", script, "-c", "sleep 2"},
                  "missing '--' before the command: dlock run job -- " + script + " -c 'sleep 2'");
    check_message({"run", "job", script, "-c", "3", "./backup.sh"},
                  "missing '--' before the command: dlock run job -- " + script +
                      " -c 3 ./backup.sh");
    CHECK_FALSE(file_exists(script + ".ran"));
    // run's own -c, before the names or after a name that is no program: the run goes on.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "-c", "true", "job", script},
          std::vector<std::string>{"run", "job", "-c", "true"},
          std::vector<std::string>{"run", "job", "other", "-c", "true"}}) {
        auto r = run_nowhere(args);
        INFO(r.err);
        CHECK(r.exit_code == 69);
    }
}

TEST_CASE("a suggested command line can be pasted into a shell", "[e2e][usage]") {
    TempDir dir;
    const auto script = write_file(dir / "backup.sh", "#!/bin/sh\n", 0755);
    check_message({"run", "job", script, "a'; echo INJECTED; '"},
                  "missing '--' before the command: dlock run job -- " + script +
                      R"( 'a'\''; echo INJECTED; '\''')");
    check_message({"-c", "it's $HOME", "run", "job"},
                  R"(-c is an option of run: dlock run -c 'it'\''s $HOME' ...)");
}

TEST_CASE("a misspelt subcommand gets a suggestion", "[e2e][usage]") {
    check_message({"rnu", "job", "--", "true"},
                  "unknown subcommand 'rnu': did you mean run? (see dlock --help)");
    check_message(
        {"latch", "creat", "job", "2"},
        "unknown subcommand 'latch creat': did you mean create? (see dlock latch --help)");
}

TEST_CASE("a misspelt option gets a suggestion", "[e2e][usage]") {
    check_message({"run", "--wiat", "5s", "job", "--", "true"},
                  "unknown option '--wiat': did you mean --wait? (see dlock run --help)");
    check_message({"run", "--tll=5s", "job", "--", "true"},
                  "unknown option '--tll=5s': did you mean --ttl? (see dlock run --help)");
    check_message({"sem", "run", "--permit", "2", "pool", "--", "true"},
                  "unknown option '--permit': did you mean --permits? (see dlock sem run --help)");
    check_message({"status", "--jsno"},
                  "unknown option '--jsno': did you mean --json? (see dlock status --help)");
    check_message({"latch", "wait", "job", "--wiat", "5s"},
                  "unknown option '--wiat': did you mean --wait? (see dlock latch wait --help)");
    check_message({"--redis-timout", "5s", "status"},
                  "unknown option '--redis-timout': did you mean --redis-timeout? (see dlock "
                  "--help)");
    check_message({"--prefx", "p", "status"},
                  "unknown option '--prefx': did you mean --prefix? (see dlock --help)");
    // Nothing close: no guess.
    check_message({"run", "--bogus", "job", "--", "true"},
                  "unexpected argument '--bogus' (see dlock run --help)");
}

TEST_CASE("an option given twice says so", "[e2e][usage]") {
    check_message({"run", "-w", "1s", "-w", "2s", "job", "--", "true"},
                  "--wait given twice (see dlock run --help)");
    check_message(
        {"run", "--ttl", "5s", "--ttl=6s", "-w", "1s", "--ttl", "7s", "job", "--", "true"},
        "--ttl given 3 times (see dlock run --help)");
    check_message({"--prefix", "a", "--prefix", "b", "status"},
                  "--prefix given twice (see dlock --help)");
    // --redis may be repeated: the members of a Redlock quorum, an odd number of them.
    check_message({"--redis", kNowhere, "--redis", kNowhere, "status"},
                  "--redis: 2 Redis URLs: a Redlock quorum needs an odd number of independent "
                  "members, 3 or more");
    check_message({"--verbose=2", "status"}, "--verbose takes no value (see dlock --help)");
}

TEST_CASE("arguments with newlines do not break the message's line", "[e2e][usage]") {
    check_message({"bo\ngus"}, "unknown subcommand 'bo\\ngus' (see dlock --help)");
    check_message({"latch", "wait", "job", "x\ny"},
                  "unexpected argument 'x\\ny' (see dlock latch wait --help)");
    check_message({"run", "--bo\ngus", "job", "--", "true"},
                  "unexpected argument '--bo\\ngus' (see dlock run --help)");
    check_message({"--redis", kNowhere, "latch", "create", "job", "1\n2"},
                  "COUNT must be an integer from 1 to 1000000000, not '1\\n2'");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--log-format", "a\nb", "status"},
             {"--syslog", "--no-syslog\n", "status"},
             {"history", "job", "-n", "1\n"},
             {"bench", "--cycles", "1\n"},
             {"latch", "wait", "job", "-E", "1\n"},
             {"latch", "count-down", "job", "\n"},
             {"run", "job", "-c", "x", "\n", "--", "true"},
         }) {
        auto r = run_nowhere(args);
        INFO(args[0] << " " << args[1] << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
}

TEST_CASE("help shows real metavars and each subcommand's own exit statuses", "[e2e][cli]") {
    const std::vector<std::vector<std::string>> pages{{"--help"},
                                                      {"run", "--help"},
                                                      {"bench", "--help"},
                                                      {"latch", "--help"},
                                                      {"latch", "create", "-h"},
                                                      {"latch", "count-down", "-h"},
                                                      {"latch", "wait", "-h"},
                                                      {"latch", "status", "-h"},
                                                      {"status", "-h"},
                                                      {"history", "-h"},
                                                      {"release", "-h"},
                                                      {"sem", "-h"},
                                                      {"sem", "run", "-h"},
                                                      {"sem", "status", "-h"},
                                                      {"config", "-h"}};
    for (const auto& page : pages) {
        auto r = run_nowhere(page);
        INFO("dlock " << page[0] << " " << (page.size() > 1 ? page[1] : "") << "\n" << r.out);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find(" TEXT") == std::string::npos);
        CHECK_FALSE(std::regex_search(r.out, std::regex("\\bINT\\b"))); // CLI11's type name
        CHECK(r.out.find("Exit status") != std::string::npos);
    }

    auto bench = run_nowhere({"bench", "--help"});
    CHECK(bench.out.find("128+N") == std::string::npos); // run's table is not bench's
    CHECK(bench.out.find("lock not obtained") == std::string::npos);
    CHECK(bench.out.find("\n  75       the bench keys are in use") != std::string::npos);
    CHECK(bench.out.find("--cycles N") != std::string::npos);

    auto wait = run_nowhere({"latch", "wait", "--help"});
    CHECK(wait.out.find("-w,--wait DURATION") != std::string::npos);
    CHECK(wait.out.find("-E,--timeout-exit-code N") != std::string::npos);
    CHECK(run_nowhere({"latch", "create", "--help"}).out.find("--ttl DURATION") !=
          std::string::npos);

    auto run = run_nowhere({"run", "--help"});
    CHECK(run.out.find("128+N") != std::string::npos); // run's table
    CHECK(run.out.find("NAME...") != std::string::npos);

    auto sem_run = run_nowhere({"sem", "run", "--help"});
    CHECK(sem_run.out.find("Usage: dlock sem run [OPTIONS] -p N NAME -- COMMAND [ARGS...]\n") !=
          std::string::npos);
    CHECK(sem_run.out.find("NAME...") == std::string::npos);
    CHECK(sem_run.out.find("the lock") == std::string::npos);
    CHECK(sem_run.out.find("if no permit is free") != std::string::npos);
}

TEST_CASE("sem run takes exactly one NAME", "[e2e][usage][sem]") {
    check_message({"--redis", kNowhere, "sem", "run", "-p", "2", "a", "b", "--", "true"},
                  "unexpected argument 'b' (see dlock sem run --help)");
}
