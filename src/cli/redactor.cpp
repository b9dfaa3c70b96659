#include "cli/redactor.hpp"

#include "util/text.hpp"

#include <algorithm>

namespace dlock::cli {
namespace {

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

// Nothing a shell would read differently: no spaces, quotes, globs, variables or control bytes.
bool plain_word(std::string_view arg) {
    return !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("-_./:=@%+,").find(c) != std::string_view::npos;
    });
}

} // namespace

Redactor::Redactor(const std::vector<std::string>& args) : secrets_(secret_values(args)) {}

std::string Redactor::argument(const std::string& arg) const {
    if (!arg.empty() && secrets_.count(arg))
        return "'***'";
    return quote(arg); // quote() redacts "--password=..." and URL credentials
}

std::string Redactor::word(const std::string& arg) const {
    const std::string shown = argument(arg);
    if (plain_word(arg) && shown == "'" + arg + "'")
        return arg;
    // Inside the quotes, a quote is written '\'' so the line can be pasted into a shell.
    std::string out = "'";
    for (size_t i = 1; i + 1 < shown.size(); ++i)
        out += shown[i] == '\'' ? std::string("'\\''") : std::string(1, shown[i]);
    return out + "'";
}

std::string Redactor::message(std::string_view text) const {
    std::string out = redact_credentials_in(text);
    for (const auto& secret : secrets_)
        for (size_t at; !secret.empty() && (at = out.find(secret)) != std::string::npos;)
            out.replace(at, secret.size(), "***");
    return one_line(out);
}

} // namespace dlock::cli
