#pragma once

#include "cli/parser.hpp"

#include <memory>
#include <optional>
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

    // Parses the options and loads the settings (config files, environment). nullopt when a
    // subcommand is ready to run; otherwise the exit status: 0 after help or version (printed
    // through util/output), 64 after a usage error (reported on stderr).
    std::optional<int> prepare();

    // After prepare() returned nullopt: the subcommand's exit status.
    int execute();
    // After prepare() returned nullopt: the usage errors execute would report before talking
    // to Redis, without talking to it.
    Result<void> check() const;

  private:
    std::vector<std::string> args_, command_;
    std::unique_ptr<Parser> parser_;
    Subcommand* subcommand_ = nullptr;
};

} // namespace dlock::cli
