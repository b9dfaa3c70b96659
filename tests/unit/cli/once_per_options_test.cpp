#include "cli/once_per_options.hpp"
#include "cli/run_options.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using cli::parse_run_options;
using cli::RunArgs;

namespace {

// Runs `true` under NAMES, without any option.
RunArgs plain(std::vector<std::string> names = {"job"}) {
    RunArgs a;
    a.names = std::move(names);
    a.command = {"true"};
    return a;
}

RunArgs once_per(std::string period, std::vector<std::string> names = {"job"}) {
    RunArgs a = plain(std::move(names));
    a.set("--once-per", std::move(period));
    return a;
}

std::string error_of(const RunArgs& a) {
    auto r = parse_run_options(a);
    if (r)
        return "";
    CHECK(r.error().fault == dlock::Fault::bad_input);
    return r.error().message;
}

} // namespace

TEST_CASE("once-per: the tolerance defaults to a tenth of the period, at most 5m",
          "[cli][once-per]") {
    auto o = parse_run_options(once_per("1h"));
    REQUIRE(o);
    REQUIRE(o->once_per);
    CHECK(o->once_per->period == Millis(3'600'000));
    CHECK(o->once_per->tolerance == Millis(300'000));
    CHECK(o->once_per->offset == Millis(0));
    CHECK_FALSE(o->once_per->strict);
    CHECK(o->slot_done_exit_code == exit_code::ok);
    CHECK(o->conflict_exit_code == exit_code::busy);
    o = parse_run_options(once_per("12s"));
    REQUIRE(o);
    CHECK(o->once_per->tolerance == Millis(1'200));
    o = parse_run_options(once_per("1d"));
    REQUIRE(o);
    CHECK(o->once_per->tolerance == Millis(300'000));
    CHECK_FALSE(parse_run_options(plain())->once_per);
}

TEST_CASE("once-per: offset, tolerance, strict and -E", "[cli][once-per]") {
    auto a = once_per("1d");
    a.set("--offset", "-2h");
    a.set("--tolerance", "10m");
    a.set("--once-per-strict");
    a.set("--conflict-exit-code", "3");
    auto o = parse_run_options(a);
    REQUIRE(o);
    CHECK(o->once_per->offset == Millis(-7'200'000));
    CHECK(o->once_per->tolerance == Millis(600'000));
    CHECK(o->once_per->strict);
    CHECK(o->slot_done_exit_code == 3); // -E sets every skip
    CHECK(o->conflict_exit_code == 3);
}

TEST_CASE("once-per: bad values and combinations are usage errors naming the option",
          "[cli][once-per]") {
    CHECK(error_of(once_per("999ms")) == "--once-per 999ms: must be from 1s to 366d");
    CHECK(error_of(once_per("x")).starts_with("--once-per: "));
    auto a = once_per("1h");
    a.set("--offset", "1h");
    CHECK(error_of(a).starts_with("--offset 1h: must be less than the period (1h)"));
    a.set("--offset", "-61m");
    CHECK(error_of(a).starts_with("--offset -61m: must be less than"));
    a = once_per("1h");
    a.set("--tolerance", "30m1s");
    CHECK(error_of(a).starts_with("--tolerance 30m1s: must be at most half the period (1h)"));
    a.set("--tolerance", "30m"); // the midpoint: nearer neither end
    CHECK(error_of(a).empty());
    CHECK(error_of(once_per("1h", {"a", "b"})).starts_with("--once-per takes one lock name"));
    a = once_per("1h");
    a.set("--shared");
    CHECK(error_of(a) == "--once-per applies to exclusive locks only, not with --shared");
    a = once_per("1h");
    a.kind = cli::RunKind::semaphore;
    a.set("--permits", "2");
    CHECK(error_of(a) == "--once-per is for dlock run, not sem run");
    a = once_per("1h");
    a.command.clear();
    a.kind = cli::RunKind::acquire;
    CHECK(error_of(a) == "--once-per is for dlock run, not acquire");
    for (auto set : {+[](RunArgs& r) { r.set("--offset", "1m"); },
                     +[](RunArgs& r) { r.set("--tolerance", "1m"); },
                     +[](RunArgs& r) { r.set("--once-per-strict"); }}) {
        RunArgs r = plain();
        set(r);
        CHECK(error_of(r).ends_with("applies to --once-per only"));
    }
}
