#include "cli/run_command.hpp"
#include "cli/run_option_table.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace dlock;
using cli::RunKind;

namespace {

constexpr RunKind kKinds[] = {RunKind::run, RunKind::semaphore, RunKind::acquire};

const char* subcommand(RunKind kind) {
    return kind == RunKind::acquire ? "acquire" : "run";
}

// CLI11's parse of `words` by the subcommand of `kind` alone (a semaphore's -p given), and what
// it hands to parse_run_options; nullopt when CLI11 refuses the words.
std::optional<cli::RunArgs> parsed(RunKind kind, std::vector<std::string> words,
                                   const std::vector<std::string>* seen = nullptr) {
    CLI::App app;
    cli::RunCommand command(app, kind, seen);
    words.insert(words.begin(), subcommand(kind));
    const bool permits = std::find_if(words.begin(), words.end(), [](const std::string& w) {
                             return w == "-p" || w == "--permits";
                         }) != words.end();
    if (kind == RunKind::semaphore && !permits)
        words.insert(words.end(), {"-p", "2"});
    words.push_back("job");
    std::reverse(words.begin(), words.end()); // CLI11 takes the arguments last first
    try {
        app.parse(words);
    } catch (const CLI::ParseError&) {
        return std::nullopt;
    }
    return command.args({"true"});
}

} // namespace

TEST_CASE("every run option row reaches parse_run_options from each subcommand that takes it",
          "[cli][run-option-table]") {
    for (const auto& row : cli::run_option_table()) {
        const std::string long_name(row.long_name());
        INFO("row " << row.flag);
        CHECK(long_name.starts_with("--"));
        for (const RunKind kind : kKinds) {
            INFO("subcommand " << subcommand(kind) << " kind " << static_cast<int>(kind));
            const std::string help = row.help_for(kind);
            CHECK_FALSE(help.empty());
            CHECK(help.find('{') == std::string::npos); // every name filled in
            std::vector<std::string> words{long_name};
            if (!row.metavar.empty())
                words.push_back("v-" + long_name);
            const auto args = parsed(kind, words);
            if (!row.taken_by(kind)) {
                CHECK_FALSE(args.has_value());
                continue;
            }
            REQUIRE(args.has_value());
            CHECK(args->value(long_name) == (row.metavar.empty() ? "" : "v-" + long_name));
        }
    }
}

TEST_CASE("a run parser for one command line registers only the options its words name",
          "[cli][run-option-table]") {
    const std::vector<std::string> seen{"run", "-w", "5s", "job"};
    CHECK(parsed(RunKind::run, {"-w", "5s"}, &seen)->value("--wait") == "5s");
    CHECK_FALSE(parsed(RunKind::run, {"--ttl", "5s"}, &seen).has_value());
    // A required option is registered whatever the words.
    CHECK(parsed(RunKind::semaphore, {"-p", "3"}, &seen)->value("--permits") == "3");
}

TEST_CASE("run option rows: a semaphore takes no lock mode or minimum hold, acquire no command",
          "[cli][run-option-table]") {
    for (const auto& row : cli::run_option_table()) {
        const auto name = row.long_name();
        if (name == "--shared" || name == "--exclusive" || name == "--min-hold")
            CHECK_FALSE(row.taken_by(RunKind::semaphore));
        if (name == "--command" || name.starts_with("--once-per") || name == "--offset" ||
            name == "--tolerance")
            CHECK_FALSE(row.taken_by(RunKind::acquire));
        if (name == "--permits")
            CHECK((row.required && !row.taken_by(RunKind::run)));
    }
}
