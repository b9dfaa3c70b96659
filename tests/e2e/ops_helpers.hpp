#pragma once

// Helpers for the end-to-end tests of the ops commands (status, history, release --force,
// --min-hold).

#include "e2e/e2e_helpers.hpp"

namespace dlock::test::e2e {

inline std::string this_host() {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    return host;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The lines of `text` that contain `part`.
inline std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
    std::vector<std::string> out;
    for (const auto& line : lines(text))
        if (contains(line, part))
            out.push_back(line);
    return out;
}

// The whitespace-separated columns of a table row.
inline std::vector<std::string> columns(const std::string& row) {
    std::istringstream in(row);
    std::vector<std::string> out;
    for (std::string word; in >> word;)
        out.push_back(word);
    return out;
}

} // namespace dlock::test::e2e
