#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock {

namespace {

std::string escaped(std::string_view text, bool escape_non_ascii) {
    std::string out;
    for (unsigned char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f || (escape_non_ascii && c > 0x7f))
            out += fmt::format("\\x{:02x}", c);
        else
            out.push_back(static_cast<char>(c));
    }
    return out;
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

std::string quote(std::string_view text) {
    // Not "'" + escaped(...): GCC 12 at -O3 warns falsely (-Wrestrict) on string prepends.
    std::string out = "'";
    out += escaped(redact_credentials(text), true);
    out += '\'';
    return out;
}

std::string one_line(std::string_view text) {
    return escaped(text, false);
}

bool is_secret_option(std::string_view arg) {
    if (!arg.starts_with('-'))
        return false;
    std::string name(arg.substr(0, arg.find('=')));
    for (auto& c : name)
        c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    if (name.ends_with("-file"))
        return false;
    // "pas" and "pw" also catch misspellings ("--pasword"), which must not show their value.
    for (const char* word : {"pas", "pw", "secret", "token", "auth", "key", "cred"})
        if (name.find(word) != std::string::npos)
            return true;
    return false;
}

std::string redact_credentials(std::string_view value) {
    if (const auto eq = value.find('='); eq != std::string_view::npos && is_secret_option(value))
        return std::string(value.substr(0, eq + 1)) + "***";
    const auto scheme = value.find("://");
    const auto at = value.rfind('@');
    if (scheme == std::string_view::npos || at == std::string_view::npos || at < scheme + 3)
        return std::string(value);
    std::string out(value.substr(0, scheme + 3));
    out += "***";
    out += value.substr(at);
    return out;
}

std::string redact_credentials_in(std::string_view message) {
    std::string out;
    size_t i = 0;
    while (i < message.size()) {
        if (is_space(message[i])) {
            out.push_back(message[i++]);
            continue;
        }
        size_t end = i;
        while (end < message.size() && !is_space(message[end]))
            ++end;
        out += redact_credentials(message.substr(i, end - i));
        i = end;
    }
    return out;
}

} // namespace dlock
