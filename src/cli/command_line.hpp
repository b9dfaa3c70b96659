#pragma once

#include "cli/parser.hpp"

#include <memory>
#include <string>
#include <vector>

namespace dlock::cli {

// One command line, from its words to a subcommand ready to run. main() runs it; the parser's
// fuzz test stops before anything can talk to Redis (check()).
class CommandLine {
  public:
    // `words` without the program name. Everything after the first "--" is the command,
    // verbatim; CLI11 sees what precedes it.
    explicit CommandLine(const std::vector<std::string>& words);

    // Parses the options and loads the settings (config files, environment). True when a
    // subcommand is ready to run; false when help or version was printed instead (through
    // util/output; exit 0); otherwise the usage error (64), not yet reported.
    Result<bool> prepare();

    // After prepare() returned true: the subcommand's exit status, or its Error.
    Result<int> execute();
    // After prepare() returned true: the usage errors execute would return before talking to
    // Redis, without talking to it.
    Result<void> check() const;

    // prepare(), then execute() if a subcommand is ready: the exit status (0 after help or
    // version), or the Error for main() to report. `argv` is the whole command line again, for
    // the static build to hand over to the dynamic one (process/dynamic_handover.hpp).
    Result<int> run(char* const* argv);

    // Whether what this command line prints on stdout is meant for a shell's `eval` (`dlock
    // acquire` in its default format): then a failure prints `exit N`, so that
    // `eval "$(dlock acquire NAME)"` ends the script instead of running it unlocked.
    bool output_is_evaluated() const;

  private:
    std::vector<std::string> args_, command_;
    bool separated_ = false; // "--" was given, even with nothing after it
    std::unique_ptr<Parser> parser_;
    Subcommand* subcommand_ = nullptr;
};

} // namespace dlock::cli
