#include "util/display_width.hpp"

#include <utility>

namespace dlock {
namespace {

bool is_continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The character starting at `text[at]`, decoded; `at` moves past it. A malformed sequence
// decodes to what its bits say: it only has to be counted, never shown differently.
char32_t next_character(std::string_view text, size_t& at) {
    const auto lead = static_cast<unsigned char>(text[at++]);
    const int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    char32_t c = more == 0 ? lead : lead & (0x3F >> more);
    for (int i = 0; i < more && at < text.size() && is_continuation(text[at]); ++i)
        c = (c << 6) | (static_cast<unsigned char>(text[at++]) & 0x3F);
    return c;
}

size_t character_width(char32_t c) {
    static constexpr std::pair<char32_t, char32_t> kWide[] = {
        {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
        {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
        {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
        {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x3FFFD},
    };
    for (const auto& [first, last] : kWide)
        if (c >= first && c <= last)
            return 2;
    return 1;
}

} // namespace

size_t display_width(std::string_view text) {
    size_t columns = 0;
    for (size_t at = 0; at < text.size();)
        columns += character_width(next_character(text, at));
    return columns;
}

std::string cut_to_width(std::string_view text, size_t columns) {
    if (display_width(text) <= columns)
        return std::string(text);
    // Below 4 columns there is no room for the "...": the text is cut bare, so that it never
    // takes more than `columns`.
    const bool ellipsis = columns > 3;
    const size_t room = ellipsis ? columns - 3 : columns;
    size_t used = 0, at = 0;
    while (at < text.size()) {
        size_t next = at;
        const size_t w = character_width(next_character(text, next));
        if (used + w > room)
            break;
        used += w;
        at = next;
    }
    return std::string(text.substr(0, at)) + (ellipsis ? "..." : "");
}

} // namespace dlock
