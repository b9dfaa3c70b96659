#include "cli/parse_errors.hpp"

#include "cli/app_tree.hpp"
#include "cli/option_hints.hpp"
#include "cli/redactor.hpp"
#include "cli/run_hints.hpp"
#include "util/did_you_mean.hpp"

#include <fmt/format.h>
#include <optional>
#include <string_view>

namespace dlock::cli {
namespace {

std::string see_help(const std::string& path) {
    return path.empty() ? "(see dlock --help)" : fmt::format("(see dlock {} --help)", path);
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({}))
        names.push_back(sub->get_name());
    return names;
}

std::string subcommand_list(const CLI::App& app) {
    const auto names = subcommand_names(app);
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return out;
}

// "A subcommand is required": the first word that should have been one, or none at all.
std::string missing_subcommand(const CLI::App& top, const std::vector<std::string>& args,
                               const Redactor& redactor) {
    const CLI::App* app = &top;
    std::string path;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& arg = args[i];
        if (arg.starts_with('-') && arg.size() > 1) {
            if (takes_separate_value(*app, arg))
                ++i;
            continue;
        }
        const auto* sub = find_subcommand(*app, arg);
        if (sub == nullptr) {
            const auto shown = redactor.argument(path.empty() ? arg : path + " " + arg);
            const auto near = closest_match(arg, subcommand_names(*app));
            return fmt::format("unknown subcommand {}{} {}", shown,
                               near ? ": did you mean " + *near + "?" : "", see_help(path));
        }
        app = sub;
        path += (path.empty() ? "" : " ") + arg;
    }
    return fmt::format("missing subcommand: {} {}", subcommand_list(*app), see_help(path));
}

// What CLI11 left over: the extras of the innermost subcommand that has any, in command-line
// order, and where that subcommand is in the chain.
struct Extras {
    size_t owner = 0;
    std::vector<std::string> args;
};

Extras extras_of(const std::vector<const CLI::App*>& chain) {
    Extras extras;
    for (size_t i = 0; i < chain.size(); ++i)
        if (auto left = chain[i]->remaining(false); !left.empty())
            extras = {i, std::move(left)};
    return extras;
}

// "unknown option '--wiat': did you mean --wait?", for an option of the subcommand's
// misspelt (not a global one after it: unexpected() has the hint for those).
std::optional<std::string> typo(const std::vector<const CLI::App*>& chain,
                                const Redactor& redactor) {
    auto [owner, extras] = extras_of(chain);
    std::erase_if(extras,
                  [&](const auto& arg) { return owner > 0 && is_option_of(*chain[0], arg); });
    auto typo = misspelled_option(*chain[owner], extras);
    if (!typo)
        if (auto letter = short_option_typo(*chain[owner], extras))
            typo = Misspelled{letter->first, letter->second};
    if (!typo)
        return std::nullopt;
    return fmt::format("unknown option {}: did you mean {}? {}", redactor.argument(typo->given),
                       typo->meant, see_help(path_of({chain.begin(), chain.begin() + owner + 1})));
}

// "The following arguments were not expected: ...": the arguments, in command-line order.
std::string unexpected(const CLI::App& top, const std::vector<const CLI::App*>& chain,
                       const std::vector<std::string>& args, const Redactor& redactor) {
    const auto [owner, extras] = extras_of(chain);
    if (auto moved = global_options_after_subcommand(chain, owner, extras, args, redactor))
        return *moved;
    std::string shown;
    bool global = false;
    for (const auto& extra : extras) {
        shown += (shown.empty() ? "" : " ") + redactor.argument(extra);
        global = global || (owner > 0 && is_option_of(top, extra));
    }
    const std::string path = path_of({chain.begin(), chain.begin() + owner + 1});
    const std::string hint =
        global ? fmt::format("(global options go before the subcommand: dlock [global options] "
                             "{} ...)",
                             path)
               : see_help(path);
    return fmt::format("unexpected argument{} {} {}", extras.size() == 1 ? "" : "s", shown, hint);
}

// The part of `chain` up to the subcommand that has option `name` ("--wait"): whose help to see.
std::vector<const CLI::App*> up_to_owner(const std::vector<const CLI::App*>& chain,
                                         const std::string& name) {
    for (size_t i = chain.size(); i-- > 0;)
        if (chain[i]->get_option_no_throw(name) != nullptr)
            return {chain.begin(), chain.begin() + i + 1};
    return chain;
}

// "--wait: At Most 1 required but received 2" -> "--wait given twice".
std::optional<std::string> given_too_often(std::string_view what) {
    constexpr std::string_view kAtMostOne = ": At Most 1 required but received ";
    const auto at = what.find(kAtMostOne);
    if (at == std::string_view::npos)
        return std::nullopt;
    const auto times = what.substr(at + kAtMostOne.size());
    return fmt::format("{} given {}", what.substr(0, at),
                       times == "2" ? std::string("twice") : fmt::format("{} times", times));
}

// "--verbose was given a disallowed flag override" -> "--verbose takes no value".
std::optional<std::string> flag_with_value(std::string_view what) {
    constexpr std::string_view kOverride = " was given a disallowed flag override";
    if (!what.ends_with(kOverride))
        return std::nullopt;
    const auto name = what.substr(0, what.size() - kOverride.size()); // without its dashes
    const std::string_view dashes = name.starts_with('-') ? "" : name.size() == 1 ? "-" : "--";
    return fmt::format("{}{} takes no value", dashes, name);
}

} // namespace

std::string describe_parse_error(const CLI::ParseError& error, const CLI::App& top,
                                 const std::vector<std::string>& args) {
    const Redactor redactor(args);
    const auto chain = parsed_chain(top);
    const std::string what = error.what();
    // Misplaced and renamed options first: they may be why CLI11 saw something else wrong.
    if (auto renamed = renamed_global_option(top))
        return *renamed;
    if (auto moved = options_before_subcommand(chain, redactor))
        return *moved;
    if (auto misspelt = typo(chain, redactor))
        return *misspelt;
    if (auto foreign = foreign_run_option(chain))
        return *foreign;
    if (dynamic_cast<const CLI::RequiredError*>(&error) && what == "NAME is required")
        if (auto hint = name_taken_as_duration(chain, redactor))
            return *hint;
    if (dynamic_cast<const CLI::RequiredError*>(&error) && what == "A subcommand is required")
        return missing_subcommand(top, args, redactor);
    if (dynamic_cast<const CLI::ExtrasError*>(&error))
        return unexpected(top, chain, args, redactor);
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) {
        auto plain = given_too_often(what);
        if (!plain)
            plain = flag_with_value(what);
        if (plain) {
            const std::string option = plain->substr(0, plain->find(' '));
            return fmt::format("{} {}", redactor.message(*plain),
                               see_help(path_of(up_to_owner(chain, option))));
        }
    }
    return fmt::format("{} {}", redactor.message(what), see_help(path_of(chain)));
}

} // namespace dlock::cli
