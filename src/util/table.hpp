#pragma once

#include <string>
#include <vector>

namespace dlock {

// Rows (the first is the header) as left-aligned columns two spaces apart, one line each; the
// last column is not padded, so a long command at the end does not widen the others. Control
// characters in cells are escaped.
// With `max_width`, the last column is cut (ending in "...") where a line would be wider,
// though never to fewer than kMinLastColumn columns.
std::string format_table(const std::vector<std::vector<std::string>>& rows, size_t max_width = 0);

inline constexpr size_t kMinLastColumn = 12;

} // namespace dlock
