#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dlock::cli {

// The one line dlock prints for a CLI11 parse error of the command line `args` (without the
// program name) parsed by `top`, in dlock's words:
//   unknown subcommand 'bogus' (see dlock --help)
//   unexpected argument '--redis' (global options go before the subcommand: dlock [global
//     options] run ...)
//   --wait given twice (see dlock run --help)
//   --verbose takes no value (see dlock --help)
//   -w is an option of run: dlock run -w 5s ...              (see option_hints.hpp)
//   global option --timeout was renamed --redis-timeout (...)
//   unknown option '--wiat': did you mean --wait? (see dlock run --help)
// Arguments are quoted (a newline in one cannot break the line), URL credentials and the
// value of any password-like option are redacted: the message may go to a shared log.
std::string describe_parse_error(const CLI::ParseError& error, const CLI::App& top,
                                 const std::vector<std::string>& args);

} // namespace dlock::cli
