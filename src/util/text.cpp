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

} // namespace

std::string quote(std::string_view text) {
    // Not "'" + escaped(...): GCC 12 at -O3 warns falsely (-Wrestrict) on string prepends.
    std::string out = "'";
    out += escaped(text, true);
    out += '\'';
    return out;
}

std::string one_line(std::string_view text) {
    return escaped(text, false);
}

} // namespace dlock
