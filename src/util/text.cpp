#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock {

namespace {

// The length of the well-formed UTF-8 sequence at the start of `text` (2-4 bytes, no overlong
// form, no surrogate, at most U+10FFFF) and its code point; 0 when there is none.
size_t utf8_sequence(std::string_view text, char32_t& code_point) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(0);
    const size_t n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (n == 0 || lead > 0xf4 || text.size() < n)
        return 0;
    char32_t cp = lead & (0x7f >> n);
    for (size_t i = 1; i < n; ++i) {
        if ((byte(i) & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i) & 0x3f);
    }
    constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    code_point = cp;
    return n;
}

// A character a terminal would act on rather than show: a C1 control (the 8-bit CSI among
// them), or one that reorders the text around it (bidirectional embeddings and isolates).
bool acts_on_terminal(char32_t cp) {
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

void escape_bytes(std::string& out, std::string_view bytes) {
    for (unsigned char c : bytes)
        out += fmt::format("\\x{:02x}", c);
}

std::string escaped(std::string_view text, bool escape_non_ascii) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        char32_t cp = 0;
        const size_t n = c > 0x7f ? utf8_sequence(text.substr(i), cp) : 1;
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f ||
                 (c > 0x7f && (n == 0 || escape_non_ascii || acts_on_terminal(cp))))
            escape_bytes(out, text.substr(i, std::max<size_t>(n, 1)));
        else
            out.append(text.substr(i, n));
        i += std::max<size_t>(n, 1);
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
