#include "cli/parse_errors.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <set>
#include <string_view>

namespace dlock::cli {
namespace {

// The subcommands parsed, outermost first: e.g. {top, latch, wait}.
std::vector<const CLI::App*> parsed_chain(const CLI::App& top) {
    std::vector<const CLI::App*> chain{&top};
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const auto* sub : chain.back()->get_subcommands({}))
            if (sub->parsed()) {
                chain.push_back(sub);
                deeper = true;
                break;
            }
    }
    return chain;
}

// "latch wait" for the chain {top, latch, wait}; "" for the top alone.
std::string path_of(const std::vector<const CLI::App*>& chain) {
    std::string path;
    for (size_t i = 1; i < chain.size(); ++i)
        path += (path.empty() ? "" : " ") + chain[i]->get_name();
    return path;
}

std::string see_help(const std::string& path) {
    return path.empty() ? "(see dlock --help)" : fmt::format("(see dlock {} --help)", path);
}

std::string_view option_name(std::string_view arg) {
    return arg.substr(0, arg.find('='));
}

// The secret values on the command line: of "--password=X", and the argument after a
// "--password" without '='.
std::set<std::string> secret_values(const std::vector<std::string>& args) {
    std::set<std::string> secrets;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!is_secret_option(args[i]))
            continue;
        if (auto eq = args[i].find('='); eq != std::string::npos)
            secrets.insert(args[i].substr(eq + 1));
        else if (i + 1 < args.size())
            secrets.insert(args[i + 1]);
    }
    return secrets;
}

class Redactor {
  public:
    explicit Redactor(const std::vector<std::string>& args) : secrets_(secret_values(args)) {}

    // One argument as a message shows it: quoted, credentials and secrets as "***".
    std::string argument(const std::string& arg) const {
        if (!arg.empty() && secrets_.count(arg))
            return "'***'";
        return quote(arg); // quote() redacts "--password=..." and URL credentials
    }

    // A message of CLI11's own: credentials and secrets out, control characters escaped.
    std::string message(std::string_view text) const {
        std::string out = redact_credentials_in(text);
        for (const auto& secret : secrets_)
            for (size_t at; !secret.empty() && (at = out.find(secret)) != std::string::npos;)
                out.replace(at, secret.size(), "***");
        return one_line(out);
    }

  private:
    std::set<std::string> secrets_;
};

// True when `arg` names an option of `app` that takes a value ("--redis"; not "--redis=URL").
bool takes_separate_value(const CLI::App& app, const std::string& arg) {
    if (!arg.starts_with('-') || arg.find('=') != std::string::npos)
        return false;
    const auto* option = app.get_option_no_throw(arg);
    return option != nullptr && option->get_items_expected_min() > 0;
}

// "-v", "--redis=URL", "-vq": an option of the top level, where global options go.
bool is_global_option(const CLI::App& top, const std::string& arg) {
    if (!arg.starts_with('-') || arg == "-" || arg == "--")
        return false;
    if (top.get_option_no_throw(std::string(option_name(arg))) != nullptr)
        return true;
    if (arg.starts_with("--"))
        return false;
    return std::all_of(arg.begin() + 1, arg.end(), [&](char c) {
        return top.get_option_no_throw(std::string{'-', c}) != nullptr;
    });
}

const CLI::App* find_subcommand(const CLI::App& app, const std::string& name) {
    for (const auto* sub : app.get_subcommands({}))
        if (sub->get_name() == name)
            return sub;
    return nullptr;
}

std::string subcommand_list(const CLI::App& app) {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({}))
        names.push_back(sub->get_name());
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
            return fmt::format("unknown subcommand {} {}", shown, see_help(path));
        }
        app = sub;
        path += (path.empty() ? "" : " ") + arg;
    }
    return fmt::format("missing subcommand: {} {}", subcommand_list(*app), see_help(path));
}

// "The following arguments were not expected: ...": the arguments, in command-line order.
std::string unexpected(const CLI::App& top, const std::vector<const CLI::App*>& chain,
                       const Redactor& redactor) {
    // The extras belong to the innermost subcommand that has any.
    size_t owner = 0;
    std::vector<std::string> extras;
    for (size_t i = 0; i < chain.size(); ++i)
        if (auto left = chain[i]->remaining(false); !left.empty()) {
            owner = i;
            extras = std::move(left);
        }
    std::string shown;
    bool global = false;
    for (const auto& extra : extras) {
        shown += (shown.empty() ? "" : " ") + redactor.argument(extra);
        global = global || (owner > 0 && is_global_option(top, extra));
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
    if (dynamic_cast<const CLI::RequiredError*>(&error) && what == "A subcommand is required")
        return missing_subcommand(top, args, redactor);
    if (dynamic_cast<const CLI::ExtrasError*>(&error))
        return unexpected(top, chain, redactor);
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
