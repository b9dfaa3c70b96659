// Numbers and durations that do not fit: far too many digits, underflow, NaN, infinity,
// negative values. Wherever they come from (flags, environment, config file, latch options),
// the answer is one line on stderr, exit 64 and not even a connection to Redis; never an abort.

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

const std::string k400Nines(400, '9');

// Durations no option may accept (-w also takes "inf": it is left out there).
std::vector<std::string> bad_durations() {
    return {k400Nines,
            k400Nines + "ms",
            k400Nines + "." + k400Nines + "s",
            "1e-400s",
            "1e400",
            "nan",
            "NaN",
            "-inf",
            "-1s",
            "-0",
            "-" + k400Nines,
            "9223372036854775807ms",
            "18446744073709551616ms",
            "9223372036854775807d",
            "36501d",
            "0x10s",
            "1.5e3s"};
}

// Integers no count, exit status or permit option may accept.
std::vector<std::string> bad_integers() {
    return {k400Nines, "-" + k400Nines, "99999999999999999999",
            "-1",      "1e400",         "1e-400",
            "nan",     "inf",           "0x10",
            "1.5",     "+-1",           ""};
}

std::string show(const std::vector<std::string>& args) {
    std::string out;
    for (const auto& a : args)
        out += "[" + (a.size() > 40 ? a.substr(0, 40) + "..." : a) + "] ";
    return out;
}

// `dlock --redis <server> ARGS` is a usage error that never connected to Redis.
void check_rejected(const RedisServer& server, const TempDir& dir,
                    const std::vector<std::string>& args, const Env& env = {}) {
    const auto before = connections_received(server);
    auto r = run(server, args, env);
    INFO("dlock " << show(args) << "\nstderr: " << r.err.substr(0, 300));
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("terminate") == std::string::npos);
    CHECK(r.out.empty());
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(connections_received(server) == before + 1); // only the INFO above: dlock never connected
}

} // namespace

TEST_CASE("out-of-range durations in run options are usage errors, not aborts",
          "[e2e][usage][numbers]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::vector<std::string> command{"job", "--", "touch", dir / "ran"};
    for (const auto& bad : bad_durations()) {
        for (const std::string option : {"-w", "--ttl", "-k", "--min-hold"}) {
            std::vector<std::string> args{"run", option, bad};
            args.insert(args.end(), command.begin(), command.end());
            check_rejected(*server, dir, args);
        }
        std::vector<std::string> sem{"sem", "run", "-p", "2", "--ttl", bad};
        sem.insert(sem.end(), command.begin(), command.end());
        check_rejected(*server, dir, sem);
    }
    // Underflow to zero is not an error in itself, but a zero TTL is.
    check_rejected(*server, dir,
                   {"run", "--ttl", "0." + std::string(400, '0') + "1s", "job", "--", "true"});
}

TEST_CASE("out-of-range durations in global options, environment and config files are usage "
          "errors",
          "[e2e][usage][numbers]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::vector<std::string> command{"run", "job", "--", "touch", dir / "ran"};
    for (const auto& bad : bad_durations()) {
        for (const std::string option : {"--connect-timeout", "--redis-timeout"}) {
            std::vector<std::string> args{option, bad};
            args.insert(args.end(), command.begin(), command.end());
            check_rejected(*server, dir, args);
        }
        for (const std::string variable : {"DLOCK_CONNECT_TIMEOUT", "DLOCK_REDIS_TIMEOUT"})
            check_rejected(*server, dir, command, {{variable, bad}});
        for (const std::string key : {"connect-timeout", "redis-timeout"}) {
            const auto file = dir / "dlock.conf";
            std::ofstream(file) << key << " = " << bad << "\n";
            check_rejected(*server, dir, command, {{"DLOCK_CONFIG", file}});
            check_rejected(*server, dir, command, {{"DLOCK_SYSTEM_CONFIG", file}});
        }
    }
}

TEST_CASE("out-of-range numbers in every numeric option are usage errors",
          "[e2e][usage][numbers]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    for (const auto& bad : bad_integers()) {
        check_rejected(*server, dir, {"run", "-E", bad, "job", "--", "touch", dir / "ran"});
        check_rejected(*server, dir, {"sem", "run", "-p", bad, "pool", "--", "touch", dir / "ran"});
        check_rejected(*server, dir, {"history", "job", "-n", bad});
        check_rejected(*server, dir, {"bench", "--cycles", bad});
        check_rejected(*server, dir, {"bench", "--handovers", bad});
        check_rejected(*server, dir, {"bench", "-k", bad});
        check_rejected(*server, dir, {"bench", "-k", "8," + bad});
        check_rejected(*server, dir, {"latch", "create", "job", bad});
        check_rejected(*server, dir, {"latch", "count-down", "job", bad});
        check_rejected(*server, dir, {"latch", "wait", "job", "-E", bad});
    }
    for (const auto& bad : bad_durations()) {
        check_rejected(*server, dir, {"latch", "create", "job", "2", "--ttl", bad});
        check_rejected(*server, dir, {"latch", "wait", "job", "-w", bad});
    }
    // Flags count; they take no value (CLI11 would convert one with std::stoll, which throws).
    for (const std::string& flag :
         std::vector<std::string>{"--verbose=" + k400Nines, "--verbose=99999999999999999999",
                                  "--verbose=x", "-q=" + k400Nines, "--json=x"})
        check_rejected(*server, dir, {flag, "status"});
    check_rejected(*server, dir, {"status", "--json=" + k400Nines});
}

TEST_CASE("a duration too long says so on one line", "[e2e][usage][numbers]") {
    auto r = run_raw({"--redis", "unix:///nonexistent/dlock-e2e.sock", "run", "--ttl",
                      k400Nines + "s", "job", "--", "true"});
    CHECK(r.exit_code == 64);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.rfind("dlock: --ttl: invalid duration '999", 0) == 0);
    CHECK(r.err.ends_with("s': too long (at most 100 years)\n"));
    r = run_raw({"--redis", "unix:///nonexistent/dlock-e2e.sock", "run", "--ttl", "-5s", "job",
                 "--", "true"});
    CHECK(r.err == "dlock: --ttl: invalid duration '-5s': must not be negative\n");
}
