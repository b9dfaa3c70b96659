#pragma once

#include "cli/global_options.hpp"

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// One subcommand of dlock, whatever its class: it runs if the command line named it.
class Subcommand {
  public:
    virtual ~Subcommand() = default;
    virtual CLI::App* app() const = 0;
    // `command` is what followed "--"; only `run` and `sem run` take one. The exit status, or
    // the Error for cli/main.cpp to report (see Result<int> in util/error.hpp).
    virtual Result<int> execute(const GlobalOptions& globals,
                                const std::vector<std::string>& command) = 0;
    // Everything execute checks before it talks to Redis (bad input is a usage error there,
    // and nothing was sent); for tests of the parser that must not touch any Redis.
    virtual Result<void> check(const GlobalOptions& globals,
                               const std::vector<std::string>& command) const = 0;
};

// What `dlock --version` prints.
inline constexpr const char* kVersionLine = "dlock " DLOCK_VERSION;

// The CLI11 parser of the whole command line: global options and the subcommands.
class Parser {
  public:
    // Every subcommand, or only the one named `only` (see named_subcommand) and then, given
    // `words` (the command line), only the global options these may use (GlobalOptions::add_to):
    // such a parser is for that line alone, and replaced by the full one if it fails.
    explicit Parser(std::string_view only = {}, const std::vector<std::string>* words = nullptr);
    Parser(const Parser&) = delete;
    Parser& operator=(const Parser&) = delete;

    // True when a subcommand was parsed; false when help or version went to stdout instead (exit
    // 0); otherwise a usage error in dlock's words (see parse_errors.hpp), not yet reported.
    // `quiet` prints nothing, not even help.
    Result<bool> parse(std::vector<std::string> args, bool quiet = false);
    const GlobalOptions& globals() const { return globals_; }
    GlobalOptions& globals() { return globals_; }
    // The subcommand parsed, or nullptr.
    Subcommand* parsed() const;
    // CLI11's tree of options and subcommands (the parser's fuzz test walks it).
    const CLI::App& app() const { return app_; }

  private:
    CLI::App app_;
    GlobalOptions globals_;
    std::vector<std::unique_ptr<Subcommand>> subcommands_;
};

// The subcommand the arguments name (the first argument that is a subcommand's name), or "".
// Building only that one spares `dlock run` the parser objects of all the others, a measurable
// part of its start-up (docs/BENCHMARKS.md). When the arguments mean something else
// (e.g. "run" was an option's value), that parser fails and the full one decides.
std::string_view named_subcommand(const std::vector<std::string>& args);

} // namespace dlock::cli
