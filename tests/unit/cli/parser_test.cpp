#include "cli/parser.hpp"

#include <catch2/catch.hpp>

using dlock::cli::named_subcommand;
using dlock::cli::Parser;

TEST_CASE("named_subcommand finds the first subcommand name", "[parser]") {
    CHECK(named_subcommand({"--redis", "unix:///s", "run", "job"}) == "run");
    CHECK(named_subcommand({"sem", "run", "-p", "3", "pool"}) == "sem");
    CHECK(named_subcommand({"-v", "status", "run"}) == "status");
    CHECK(named_subcommand({"--version"}).empty());
    CHECK(named_subcommand({}).empty());
}

TEST_CASE("a parser of one subcommand defers to the full parser when in doubt", "[parser]") {
    // "run" is the value of --prefix here; the subcommand is status.
    const std::vector<std::string> args{"--prefix", "run", "status", "job"};
    Parser only_run(named_subcommand(args));
    const auto refused = only_run.parse(args, true);
    CHECK((!refused && refused.error().fault == dlock::Fault::bad_input));

    Parser full;
    REQUIRE(full.parse(args) == true);
    REQUIRE(full.parsed() != nullptr);
    CHECK(full.parsed()->app()->get_name() == "status");
}

TEST_CASE("a parser of the named subcommand parses it", "[parser]") {
    const std::vector<std::string> args{"-q", "run", "-w", "5s", "job"};
    Parser only_run(named_subcommand(args));
    REQUIRE(only_run.parse(args, true) == true);
    REQUIRE(only_run.parsed() != nullptr);
    CHECK(only_run.parsed()->app()->get_name() == "run");
}
