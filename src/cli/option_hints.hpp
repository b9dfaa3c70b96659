#pragma once

#include "cli/redactor.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlock::cli {

// Hints about the options CLI11 left over (its "extras"): given under a former name, on the
// wrong side of the subcommand, or misspelled. Each is nullopt when it does not apply. `chain`
// is the subcommands parsed, the top first (see parsed_chain).

// A former name of a global option among the top's extras, as the option table records it:
// "global option --timeout was renamed --redis-timeout (...)".
std::optional<std::string> renamed_global_option(const CLI::App& top);

// The top's extras when they all are options of a subcommand on the command line, with their
// values: "-w is an option of run: dlock run -w 5s ...".
std::optional<std::string> options_before_subcommand(const std::vector<const CLI::App*>& chain,
                                                     const Redactor& redactor);

// `extras`, left over by subcommand `chain[owner]`, when they all are global options, with
// their values from `args` (the command line): "--redis is a global option: dlock --redis URL
// run ...".
std::optional<std::string>
global_options_after_subcommand(const std::vector<const CLI::App*>& chain, size_t owner,
                                const std::vector<std::string>& extras,
                                const std::vector<std::string>& args, const Redactor& redactor);

// A long option among `extras` that is not one of `app` but close to one: {"--wiat", "--wait"}.
struct Misspelled {
    std::string given; // as on the command line, "=VALUE" and all
    std::string meant;
};
std::optional<Misspelled> misspelled_option(const CLI::App& app,
                                            const std::vector<std::string>& extras);

} // namespace dlock::cli
