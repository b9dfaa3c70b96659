#include "util/error.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("fail carries fault, message and transient flag", "[error]") {
    Result<int> r = fail(dlock::Fault::unavailable, "down", true);
    REQUIRE_FALSE(r);
    CHECK(r.error().fault == dlock::Fault::unavailable);
    CHECK(r.error().message == "down");
    CHECK(r.error().transient);

    Result<int> permanent = fail(dlock::Fault::internal, "bug");
    CHECK_FALSE(permanent.error().transient);
}

TEST_CASE("usage errors exit with 64 and are not transient", "[error]") {
    Result<void> r = usage_error("bad option");
    REQUIRE_FALSE(r);
    CHECK(r.error().fault == dlock::Fault::bad_input);
    CHECK_FALSE(r.error().transient);
}

TEST_CASE("exit codes follow sysexits and the shell convention", "[error]") {
    CHECK(exit_code::usage == 64);
    CHECK(exit_code::unavailable == 69);
    CHECK(exit_code::internal == 70);
    CHECK(exit_code::busy == 75);
    CHECK(exit_code::lease_lost == 76);
    CHECK(exit_code::not_executable == 126);
    CHECK(exit_code::not_found == 127);
    CHECK(exit_code::signal_base == 128);
}

TEST_CASE("every fault has its documented exit status", "[error]") {
    CHECK(exit_code::of(Fault::bad_input) == 64);
    CHECK(exit_code::of(Fault::no_such_latch) == 66);
    CHECK(exit_code::of(Fault::unavailable) == 69);
    CHECK(exit_code::of(Fault::internal) == 70);
    CHECK(exit_code::of(Fault::not_obtained) == 75);
    CHECK(exit_code::of(Fault::lease_lost) == 76);
    CHECK(exit_code::of(Fault::command_not_executable) == 126);
    CHECK(exit_code::of(Fault::command_not_found) == 127);
}

namespace {

Result<int> number(bool ok) {
    if (!ok)
        return fail(dlock::Fault::unavailable, "no number", true);
    return 42;
}

Result<void> checked(bool ok) {
    if (!ok)
        return usage_error("not checked");
    return {};
}

// Counts how far it got, to show that TRY returns at the first error.
Result<std::string> both(bool first, bool second, int& reached) {
    TRY(checked(first));
    ++reached;
    TRY_ASSIGN(const int n, number(second));
    ++reached;
    std::string text;
    TRY_ASSIGN(text, number(true).map([&](int m) { return std::to_string(n + m); }));
    return text;
}

} // namespace

TEST_CASE("TRY and TRY_ASSIGN return the first error unchanged, or go on with the value",
          "[error]") {
    int reached = 0;
    auto r = both(true, true, reached);
    REQUIRE(r);
    CHECK(*r == "84");
    CHECK(reached == 2);

    reached = 0;
    r = both(false, true, reached);
    REQUIRE_FALSE(r);
    CHECK(r.error().fault == dlock::Fault::bad_input);
    CHECK(r.error().message == "not checked");
    CHECK(reached == 0);

    reached = 0;
    r = both(true, false, reached);
    REQUIRE_FALSE(r);
    CHECK(r.error().fault == dlock::Fault::unavailable);
    CHECK(r.error().message == "no number");
    CHECK(r.error().transient); // the whole Error, flags included
    CHECK(reached == 1);
}

TEST_CASE("TRY on a variable leaves it as it was", "[error]") {
    Result<std::string> held = std::string("value");
    Result<std::string> failed = fail(dlock::Fault::internal, "kept");
    auto pass_on = [](const Result<std::string>& r) -> Result<int> {
        TRY(r);
        return 1;
    };
    CHECK(pass_on(held) == 1);
    CHECK(*held == "value");
    auto r = pass_on(failed);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "kept");
    CHECK(failed.error().message == "kept");
}
