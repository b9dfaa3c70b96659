#include "app/hold_output.hpp"
#include "cli/run_options.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

using namespace dlock;

namespace {

// What `sh -c 'eval "$1"; printf %s "$X"'` makes of `assignments`.
std::string evaluated(const std::string& assignments) {
    const std::string script = assignments + "printf %s \"$X\"";
    std::string command = "sh -c " + app::shell_quote(script);
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    std::array<char, 256> buffer;
    while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe))
        out.append(buffer.data(), n);
    pclose(pipe);
    return out;
}

} // namespace

TEST_CASE("hold values are single-quoted so that sh reads them back unchanged", "[hold-output]") {
    CHECK(app::shell_quote("plain") == "'plain'");
    CHECK(app::shell_quote("it's") == "'it'\\''s'");
    CHECK(app::shell_quote("") == "''");
    for (const std::string value : {"it's", "$(touch /tmp/x) `id` $HOME \\n", "a\nb", "''", ""}) {
        const auto text = app::format_hold({{"X", value}}, app::HoldFormat::sh);
        CHECK(text == "export X=" + app::shell_quote(value) + "\n");
        CHECK(evaluated(text) == value);
    }
}

TEST_CASE("hold as JSON: one object of strings on one line", "[hold-output]") {
    CHECK(app::format_hold({{"A", "1"}, {"B", "x\"y"}}, app::HoldFormat::json) ==
          "{\"A\":\"1\",\"B\":\"x\\\"y\"}\n");
}

TEST_CASE("acquire takes run's options but no command", "[run-options][acquire]") {
    cli::RunArgs args;
    args.kind = cli::RunKind::acquire;
    args.names = {"job"};
    auto ok = cli::parse_run_options(args);
    REQUIRE(ok);
    CHECK(ok->argv.empty());
    args.command = {"true"};
    auto with_command = cli::parse_run_options(args);
    REQUIRE_FALSE(with_command);
    CHECK(with_command.error().message.starts_with("acquire takes no command; use dlock run"));
    args.command.clear();
    args.set("--command", "true");
    CHECK_FALSE(cli::parse_run_options(args));
}
