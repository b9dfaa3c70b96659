#pragma once

#include "cli/redactor.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// Hints about a command line of `run`, `sem run` or `acquire` that CLI11 refused, from the run
// option table (cli/run_option_table.hpp). `chain` is the subcommands parsed, the top first
// (see parsed_chain); each is nullopt when it does not apply.

// An option left over that flock(1) has and dlock does without (-o, -F, -u), with what dlock
// does instead; or a run option that this subcommand does not take, and why:
// "--once-per is not supported for semaphores (sem run): ...".
std::optional<std::string> foreign_run_option(const std::vector<const CLI::App*>& chain);

// A short option left over whose letter in the other case is an option of the subcommand:
// {"-W", "-w"}.
std::optional<std::pair<std::string, std::string>>
short_option_typo(const CLI::App& app, const std::vector<std::string>& extras);

// "NAME is required" after an option that takes a DURATION took the name as its value:
// "-w took 'job' as its DURATION, and 'job' is not one: ...".
std::optional<std::string> name_taken_as_duration(const std::vector<const CLI::App*>& chain,
                                                  const Redactor& redactor);

} // namespace dlock::cli
