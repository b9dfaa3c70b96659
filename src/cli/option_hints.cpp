#include "cli/option_hints.hpp"

#include "cli/app_tree.hpp"
#include "cli/option_table.hpp"
#include "util/did_you_mean.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

// "-w", "-w and --ttl", "-w, --ttl and -E".
std::string and_list(const std::vector<std::string>& words) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
    return out;
}

// The value given to option `arg` as the next word of `args`, looked for after the subcommand
// `sub`; "" when there is none.
std::string separate_value(const std::vector<std::string>& args, const std::string& sub,
                           const std::string& arg) {
    auto at = std::find(args.begin(), args.end(), sub);
    at = std::find(at, args.end(), arg);
    return at != args.end() && at + 1 != args.end() ? *(at + 1) : std::string();
}

// "-w is an option of run: dlock run -w 5s ...": `one` or `several` say what `names` are
// ("an option of run", "options of run"), and `command` is where they go.
std::string moved_options(const std::vector<std::string>& names, const std::string& one,
                          const std::string& several, const std::string& command) {
    return fmt::format("{} {}: dlock {} ...", and_list(names),
                       names.size() == 1 ? "is " + one : "are " + several, command);
}

} // namespace

std::optional<std::string> renamed_global_option(const CLI::App& top) {
    for (const auto& extra : top.remaining(false))
        if (auto message = config::renamed(global_option_table(), &config::FormerNames::flag,
                                           option_name(extra)))
            return "global option " + *message;
    return std::nullopt;
}

std::optional<std::string> options_before_subcommand(const std::vector<const CLI::App*>& chain,
                                                     const Redactor& redactor) {
    const auto extras = chain.front()->remaining(false);
    if (extras.empty())
        return std::nullopt;
    // The innermost subcommand that has the first of them; all of them must be its.
    size_t owner = chain.size() - 1;
    while (owner > 0 && !is_option_of(*chain[owner], extras.front()))
        --owner;
    if (owner == 0)
        return std::nullopt;
    const CLI::App& sub = *chain[owner];
    std::vector<std::string> names;
    std::string moved;
    for (size_t i = 0; i < extras.size(); ++i) {
        if (!is_option_of(sub, extras[i]))
            return std::nullopt;
        names.emplace_back(option_name(extras[i]));
        moved += " " + redactor.word(extras[i]);
        if (takes_separate_value(sub, extras[i]) && i + 1 < extras.size())
            moved += " " + redactor.word(extras[++i]);
    }
    const std::string path = path_of({chain.begin(), chain.begin() + owner + 1});
    return moved_options(names, "an option of " + path, "options of " + path, path + moved);
}

std::optional<std::string>
global_options_after_subcommand(const std::vector<const CLI::App*>& chain, size_t owner,
                                const std::vector<std::string>& extras,
                                const std::vector<std::string>& args, const Redactor& redactor) {
    const CLI::App& top = *chain.front();
    if (owner == 0 || extras.empty())
        return std::nullopt;
    std::vector<std::string> names;
    std::string moved;
    for (size_t i = 0; i < extras.size(); ++i) {
        if (!is_option_of(top, extras[i]))
            return std::nullopt;
        names.emplace_back(option_name(extras[i]));
        moved += redactor.word(extras[i]) + " ";
        if (!takes_separate_value(top, extras[i]))
            continue;
        // CLI11 may have taken the value as a NAME, or left it over beside the option.
        const auto value = separate_value(args, chain[1]->get_name(), extras[i]);
        moved += value.empty() ? std::string() : redactor.word(value) + " ";
        if (i + 1 < extras.size() && extras[i + 1] == value)
            ++i;
    }
    const std::string path = path_of({chain.begin(), chain.begin() + owner + 1});
    return moved_options(names, "a global option", "global options", moved + path);
}

std::optional<Misspelled> misspelled_option(const CLI::App& app,
                                            const std::vector<std::string>& extras) {
    const auto names = long_option_names(app);
    for (const auto& extra : extras) {
        if (!extra.starts_with("--") || extra.size() < 3 || is_option_of(app, extra))
            continue;
        if (auto near = closest_match(option_name(extra).substr(2), names))
            return Misspelled{extra, "--" + *near};
    }
    return std::nullopt;
}

} // namespace dlock::cli
