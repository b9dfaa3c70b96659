#include "util/table.hpp"

#include "util/text.hpp"

#include <algorithm>

namespace dlock {
namespace {

// Display width: UTF-8 continuation bytes take no column.
size_t width(const std::string& cell) {
    return static_cast<size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

} // namespace

std::string format_table(const std::vector<std::vector<std::string>>& raw_rows) {
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
            widths[i] = std::max(widths[i], width(row[i]));
    }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size())
                line.append(widths[i] - width(row[i]) + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

} // namespace dlock
