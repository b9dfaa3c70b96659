#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock {

std::string quote(std::string_view text) {
    std::string out = "'";
    for (unsigned char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c >= 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out.push_back(static_cast<char>(c));
    }
    return out + "'";
}

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\')
            out += {'\\', static_cast<char>(c)};
        else if (c < 0x20 || c == 0x7f)
            out += fmt::format("\\u{:04x}", c);
        else
            out.push_back(static_cast<char>(c));
    }
    return out + "\"";
}

} // namespace dlock
