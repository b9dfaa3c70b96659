#pragma once

#include <string>
#include <string_view>

namespace dlock {

// Columns `text` (UTF-8) takes on a terminal: 2 for an East Asian wide or fullwidth character
// (CJK, Hangul, fullwidth forms, most emoji), 1 for any other. Locale-free, so a table lines up
// the same under cron's C locale; combining marks count as 1, which is rare enough in host
// names and commands.
size_t display_width(std::string_view text);

// `text` cut to `columns` columns, its end replaced by "..." (whole characters only); unchanged
// if it fits.
std::string cut_to_width(std::string_view text, size_t columns);

} // namespace dlock
