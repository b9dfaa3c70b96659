#include "util/table.hpp"

#include "util/display_width.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace dlock {
namespace {

// Narrows the `cuttable` columns in turn, and cuts their cells, so that lines fit `max_width`.
void fit_columns(std::vector<std::vector<std::string>>& rows, std::vector<size_t>& widths,
                 size_t max_width, const std::vector<Cuttable>& cuttable) {
    size_t line = 2 * (widths.size() - 1);
    for (const size_t w : widths)
        line += w;
    for (const auto& c : cuttable) {
        if (line <= max_width)
            return;
        if (c.column >= widths.size() || widths[c.column] <= c.min_width)
            continue;
        const size_t narrower = std::min(line - max_width, widths[c.column] - c.min_width);
        widths[c.column] -= narrower;
        line -= narrower;
        for (auto& row : rows)
            if (c.column < row.size())
                row[c.column] = cut_to_width(row[c.column], widths[c.column]);
    }
}

} // namespace

std::string format_table(const std::vector<std::vector<std::string>>& raw_rows, size_t max_width,
                         const std::vector<Cuttable>& cuttable) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& raw : raw_rows) {
        rows.emplace_back();
        for (const auto& cell : raw)
            rows.back().push_back(one_line(cell));
    }
    std::vector<size_t> widths;
    for (const auto& row : rows) {
        widths.resize(std::max(widths.size(), row.size()));
        for (size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], display_width(row[i]));
    }
    if (max_width > 0 && !widths.empty())
        fit_columns(rows, widths, max_width,
                    cuttable.empty() ? std::vector<Cuttable>{{widths.size() - 1, kMinLastColumn}}
                                     : cuttable);
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size())
                line.append(widths[i] - display_width(row[i]) + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

} // namespace dlock
