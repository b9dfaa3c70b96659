#pragma once

#include <string>
#include <vector>

namespace dlock {

// Rows (the first is the header) as left-aligned columns two spaces apart, one line each; the
// last column is not padded, so a long command at the end does not widen the others. Control
// characters in cells are escaped.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

} // namespace dlock
