#pragma once

#include <string>
#include <vector>

namespace dlock {

// Rows (the first is the header) as left-aligned columns two spaces apart, one line each; the
// last column is not padded, so a long command at the end does not widen the others. Control
// characters in cells are escaped.
// With `max_width`, the `cuttable` columns are narrowed in turn (their cells cut, ending in "...")
// where a line would be wider, each never below its own minimum; without `cuttable`, the last
// column alone, never below kMinLastColumn.
struct Cuttable {
    size_t column;
    size_t min_width;
};
std::string format_table(const std::vector<std::vector<std::string>>& rows, size_t max_width = 0,
                         const std::vector<Cuttable>& cuttable = {});

inline constexpr size_t kMinLastColumn = 12;

} // namespace dlock
