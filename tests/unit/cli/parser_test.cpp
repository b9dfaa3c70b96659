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

namespace {

// What a parse of `args` gave: "error", or the subcommand and each global option given.
std::string outcome(Parser& parser, const std::vector<std::string>& args) {
    const auto parsed = parser.parse(args, true);
    if (!parsed || !*parsed || parser.parsed() == nullptr)
        return "error";
    std::string out = parser.parsed()->app()->get_name();
    for (const auto& flag : parser.globals().given())
        out += " " + flag.key + "=" + flag.value + "(" + flag.flag + ")";
    // And what the subcommand makes of its own options (after the settings, which it needs).
    if (const auto loaded = parser.globals().load(); !loaded)
        return out + " " + loaded.error().message;
    const auto checked = parser.parsed()->check(parser.globals(), {"true"});
    return out + (checked ? " checked" : " " + checked.error().message);
}

} // namespace

TEST_CASE("a parser with only the global options a line uses parses it as the full one, or fails",
          "[parser]") {
    const std::vector<std::vector<std::string>> lines = {
        {"--redis", "unix:///s", "run", "job"},
        {"-v", "--redis=redis://h", "run", "-w", "5s", "job"},
        {"-vv", "run", "job"},
        {"-qv", "run", "job"},
        {"-v", "-q", "run", "job"},
        {"--verbose", "--verbose", "run", "job"},
        {"--quiet", "run", "-n", "job"},
        {"--tls-insecure", "--no-syslog", "run", "job"},
        {"--syslog", "--no-syslog", "run", "job"},
        {"--syslog=true", "run", "job"},
        {"run", "--redis", "unix:///s", "job"},
        {"run", "-v", "job"},
        {"--timeout", "5s", "run", "job"},
        {"run", "--timeout", "5s", "job"},
        {"--redis", "run", "job"},
        {"--nosuch", "run", "job"},
        {"-x", "run", "job"},
        {"--prefix", "p", "--connect-timeout", "2s", "--redis-timeout=3s", "run", "-s", "job"},
        {"--log-format", "json", "run", "job", "other"},
        {"--min-replicas", "auto", "--replica-timeout", "1s", "run", "-k", "1s", "job"},
        {"--password-file", "/p", "--sentinel-user", "u", "run", "job"},
        {"--tls-ca-file=/ca", "--tls-cert", "/c", "--tls-key", "/k", "run", "job"},
        {"-vw", "5s", "run", "job"},
        {"--redis", "--verbose", "run", "job"},
        {"--redis", "", "run", "job"},
        {"run", "job", "--tls-insecure"},
        {"run", "-w", "5s", "job"},
        {"run", "-n", "-w", "5s", "job"},
        {"run", "--timeout", "5", "-n", "job"},
        {"run", "-s", "-x", "job"},
        {"run", "-sx", "job"},
        {"run", "-xs", "job"},
        {"run", "-s", "job", "other"},
        {"run", "-E", "1", "--ttl", "30s", "-k", "2s", "--lost-signal", "INT", "job"},
        {"run", "-E1", "--ttl=30s", "-k2s", "job"},
        {"run", "--min-hold", "1m", "-c", "echo", "job"},
        {"run", "-c", "echo hi", "job"},
        {"run", "-c"},
        {"run", "-w", "job"},
        {"run", "-wforever", "job"},
        {"run", "--wait=forever", "--timeout", "3s", "job"},
        {"run", "-p", "3", "job"},
        {"run", "--permits", "3", "job"},
        {"run", "job", "-n"},
        {"run"},
        {"run", "-q", "job"},
    };
    for (const auto& args : lines) {
        Parser full;
        Parser subset(named_subcommand(args), &args);
        const std::string expected = outcome(full, args);
        const std::string got = outcome(subset, args);
        INFO("line: " << Catch::Detail::stringify(args) << " full: " << expected
                      << " subset: " << got);
        CHECK((got == expected || got == "error"));
    }
}
