#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// How to write a run whose command has no "--" before it: for `dlock run job ./backup.sh
// --full`, "missing '--' before the command: dlock run job -- ./backup.sh --full".
//
// `args` is the command line, with no "--" on it; `top` the parser that read it. The command
// is taken to start at the first word after run's (or sem run's) first NAME that names a
// program (an executable file, at that path when the word has a '/', else on PATH), or that
// has a '/' and is followed by an option run does not know (the program's own, as in
// "./backup.sh --full" where no ./backup.sh is). The words from it on are the command's.
// nullopt when there is no such word, or when another option run does not know comes first.
// With -c, only a program named just before it counts: in `dlock run job bash -c 'sleep 2'`
// the -c is bash's, and taking it as run's would run the string under /bin/sh with a lock
// named bash, which every such cron line would share.
//
// A guess: without "--" or -c a run has no command and fails whatever the words mean (several
// NAMEs are valid: `dlock run a b -- cmd`). With -c it refuses a run that would have been
// valid; a lock named like a program takes -c before the names (`dlock run -c 'x' job bash`).
std::optional<std::string> missing_separator(const CLI::App& top,
                                             const std::vector<std::string>& args);

} // namespace dlock::cli
