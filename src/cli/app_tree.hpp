#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// Questions about CLI11's tree of subcommands and options, asked by the messages about a
// command line that did not parse (see parse_errors.hpp, missing_separator.hpp).

// The subcommands parsed, outermost first: e.g. {top, latch, wait}.
std::vector<const CLI::App*> parsed_chain(const CLI::App& top);

// "latch wait" for the chain {top, latch, wait}; "" for the top alone.
std::string path_of(const std::vector<const CLI::App*>& chain);

// "--redis" of "--redis=URL".
std::string_view option_name(std::string_view arg);

// True when `arg` names an option of `app` that takes a value ("--redis"; not "--redis=URL").
bool takes_separate_value(const CLI::App& app, const std::string& arg);

// "-v", "--redis=URL", "-vq" (each letter one): an option of `app`'s own.
bool is_option_of(const CLI::App& app, const std::string& arg);

// The subcommand of `app` called `name`, or nullptr.
const CLI::App* find_subcommand(const CLI::App& app, const std::string& name);

// The long names of `app`'s own options, without their dashes: {"wait", "no-wait", ...}.
std::vector<std::string> long_option_names(const CLI::App& app);

} // namespace dlock::cli
