#include "cli/run_options.hpp"
#include "lock/lease_clock.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dlock;
using cli::parse_run_options;
using cli::RunArgs;

namespace {

RunArgs args_for(std::vector<std::string> names = {"job"}) {
    RunArgs a;
    a.names = std::move(names);
    a.command = {"true"};
    return a;
}

// The usage error of `a` ("" when it parses).
std::string error_of(const RunArgs& a) {
    auto r = parse_run_options(a);
    if (r)
        return "";
    CHECK(r.error().fault == dlock::Fault::bad_input);
    return r.error().message;
}

const std::string kBadDuration =
    "expected a number with an optional unit ms, s, m, h or d (e.g. 500ms, 30s, 1.5m, 1m30s)";

} // namespace

TEST_CASE("run options: defaults", "[cli][run]") {
    const auto o = parse_run_options(args_for()).value();
    CHECK(o.names == std::vector<std::string>{"job"});
    CHECK(o.argv == std::vector<std::string>{"true"});
    CHECK(o.wait == std::optional<Millis>(Millis(0)));
    CHECK(o.conflict_exit_code == exit_code::busy);
    CHECK(o.ttl == Millis(30'000));
    CHECK(o.kill_after == Millis(5'000));
    CHECK(o.lost_signal == SIGTERM);
    CHECK_FALSE(o.shared);
    CHECK(o.min_hold == Millis(0));
    CHECK(o.permits == 0);
    CHECK_FALSE(o.max_run.has_value());
}

TEST_CASE("run options: values given", "[cli][run]") {
    auto a = args_for({"b", "a", "b"});
    a.set("--wait", "forever");
    a.set("--conflict-exit-code", "0");
    a.set("--ttl", "3s");
    a.set("--lost-signal", "INT");
    a.set("--min-hold", "1m");
    a.set("--max-run", "2h30m");
    const auto o = parse_run_options(a).value();
    CHECK(o.names == std::vector<std::string>{"b", "a"}); // a set, in order of first appearance
    CHECK_FALSE(o.wait.has_value());
    CHECK(o.conflict_exit_code == 0);
    CHECK(o.ttl == Millis(3'000));
    CHECK(o.kill_after == Millis(500)); // half a renewal interval under 30s
    CHECK(o.lost_signal == SIGINT);
    CHECK(o.min_hold == Millis(60'000));
    CHECK(o.max_run == Millis(9'000'000));

    a.set("--kill-after", "1s"); // exactly TTL/3
    CHECK(parse_run_options(a).value().kill_after == Millis(1'000));
}

TEST_CASE("run options: -c runs the string under /bin/sh", "[cli][run]") {
    auto a = args_for();
    a.set("--command", "-e echo");
    a.command = {"x"};
    const auto o = parse_run_options(a).value();
    CHECK(o.argv == std::vector<std::string>{"/bin/sh", "-c", "--", "-e echo", "sh", "x"});

    a.set("--command", "");
    CHECK(error_of(a) == "-c: the shell command must not be empty");
}

TEST_CASE("run options: bad values are usage errors naming the option", "[cli][run]") {
    auto a = args_for();
    a.set("--ttl", "abc");
    CHECK(error_of(a) == "--ttl: invalid duration 'abc': " + kBadDuration);
    a.set("--ttl", "500ms");
    CHECK(error_of(a) == "--ttl 500ms: must be from 1s to 24h");
    a.set("--ttl", "25h");
    CHECK(error_of(a) == "--ttl 25h: must be from 1s to 24h");

    a = args_for();
    a.set("--wait", "soon");
    CHECK(error_of(a) == "--wait: invalid duration 'soon': " + kBadDuration);
    a.set("--wait", "");
    CHECK(error_of(a) == "--wait: invalid duration '': " + kBadDuration);

    a = args_for();
    a.set("--kill-after", "x");
    CHECK(error_of(a) == "--kill-after: invalid duration 'x': " + kBadDuration);

    a = args_for();
    a.set("--conflict-exit-code", "300");
    CHECK(error_of(a) == "--conflict-exit-code '300': must be a number from 0 to 255");

    a = args_for();
    a.set("--lost-signal", "FOO");
    CHECK(error_of(a) == "--lost-signal: invalid signal 'FOO': expected a name like TERM or a "
                         "number");

    a = args_for();
    a.set("--min-hold", "25h");
    CHECK(error_of(a) == "--min-hold 25h: must be at most 24h");

    a = args_for();
    a.set("--max-run", "0");
    CHECK(error_of(a) ==
          "--max-run 0: must be more than 0 (the longest the command may run, e.g. 2h)");
    a.set("--max-run", "later");
    CHECK(error_of(a) == "--max-run: invalid duration 'later': " + kBadDuration);

    CHECK(error_of(args_for({"a b"})) ==
          "invalid lock name 'a b': only letters, digits and . _ : / @ + = - are allowed");
}

TEST_CASE("run options: conflicting values", "[cli][run]") {
    auto a = args_for();
    a.set("--ttl", "30s");
    a.set("--kill-after", "11s");
    CHECK(error_of(a) == "--kill-after 11s does not fit in --ttl 30s: the command must be killed "
                         "before the lease can expire, so --kill-after may be at most TTL/3 (10s)");
    a = args_for(); // the default TTL, 30s
    a.set("--kill-after", "11s");
    CHECK(error_of(a) == "--kill-after 11s does not fit in --ttl 30s: the command must be killed "
                         "before the lease can expire, so --kill-after may be at most TTL/3 (10s)");

    a = args_for();
    a.set("--shared");
    a.set("--min-hold", "1s");
    CHECK(error_of(a) == "--min-hold applies to exclusive locks only, not with --shared");
    a.set("--min-hold", "0s"); // no hold: nothing to refuse
    CHECK(error_of(a).empty());
}

TEST_CASE("run options: the command is required", "[cli][run]") {
    auto a = args_for();
    a.command.clear();
    CHECK(error_of(a) == "missing command: use run NAME... -- COMMAND [ARG...] or run NAME... -c "
                         "'shell command'");
    a.kind = cli::RunKind::semaphore;
    CHECK(error_of(a) == "missing command: use sem run NAME -- COMMAND [ARG...] or sem run NAME "
                         "-c 'shell command'");
}

TEST_CASE("run options: sem run takes -p N", "[cli][run]") {
    auto a = args_for();
    a.kind = cli::RunKind::semaphore;
    a.set("--permits", "3");
    CHECK(parse_run_options(a).value().permits == 3);
    a.set("--permits", "0");
    CHECK(error_of(a) == "--permits '0': must be a number from 1 to 1000000");
}

TEST_CASE("renewal interval and the default kill-after follow the TTL", "[lock]") {
    CHECK(lock::renewal_interval(Millis(30'000)) == Millis(10'000));
    CHECK(lock::default_kill_after(Millis(30'000)) == Millis(5'000));
    CHECK(lock::default_kill_after(Millis(3'000)) == Millis(500));
    CHECK(lock::default_kill_after(Millis(3'600'000)) == Millis(5'000));
}

TEST_CASE("run options: --timeout is flock's name for --wait", "[cli][run]") {
    auto a = args_for();
    a.set("--timeout", "1m30s");
    CHECK(parse_run_options(a).value().wait == std::optional<Millis>(Millis(90'000)));
    a.set("--timeout", "forever");
    CHECK_FALSE(parse_run_options(a).value().wait.has_value());
    a.set("--timeout", "soon");
    CHECK(error_of(a) == "--timeout: invalid duration 'soon': " + kBadDuration);
    a.set("--timeout", "5s");
    a.set("--wait", "5s");
    CHECK(error_of(a) ==
          "-w/--wait and --timeout are the same option (--timeout is flock's name): give one");
}
