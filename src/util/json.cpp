#include "util/json.hpp"

#include <fmt/format.h>

namespace dlock {
namespace {

// Length of the valid UTF-8 sequence starting at text[i] (at least 2 bytes), or 0.
size_t utf8_sequence(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    size_t len = 0;
    unsigned min = 0;
    if (lead >= 0xC2 && lead <= 0xDF)
        len = 2, min = 0x80;
    else if (lead >= 0xE0 && lead <= 0xEF)
        len = 3, min = 0x800;
    else if (lead >= 0xF0 && lead <= 0xF4)
        len = 4, min = 0x10000;
    if (len == 0 || i + len > text.size())
        return 0;
    unsigned code = lead & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return len;
}

} // namespace

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const size_t len = utf8_sequence(text, i);
            if (len == 0) {
                out += "\\ufffd";
                ++i;
            } else {
                out.append(text.substr(i, len));
                i += len;
            }
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f)
                out += fmt::format("\\u{:04x}", c);
            else
                out.push_back(static_cast<char>(c));
        }
        ++i;
    }
    return out + "\"";
}

} // namespace dlock
