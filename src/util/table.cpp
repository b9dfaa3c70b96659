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

// `cell` cut to `columns` columns, its end replaced by "..." (whole UTF-8 characters only).
std::string cut(const std::string& cell, size_t columns) {
    if (width(cell) <= columns)
        return cell;
    std::string out;
    size_t used = 0;
    for (char c : cell) {
        const bool starts_character = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        if (starts_character && used++ == columns - 3)
            break;
        out.push_back(c);
    }
    return out + "...";
}

// Cuts the last cell of each row so that lines fit `max_width` (see format_table).
void fit_last_column(std::vector<std::vector<std::string>>& rows, const std::vector<size_t>& widths,
                     size_t max_width) {
    size_t start = 0; // where the last column starts
    for (size_t i = 0; i + 1 < widths.size(); ++i)
        start += widths[i] + 2;
    const size_t room = std::max(kMinLastColumn, max_width > start ? max_width - start : 0);
    for (auto& row : rows)
        if (row.size() == widths.size())
            row.back() = cut(row.back(), room);
}

} // namespace

std::string format_table(const std::vector<std::vector<std::string>>& raw_rows, size_t max_width) {
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
    if (max_width > 0 && !widths.empty())
        fit_last_column(rows, widths, max_width);
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
