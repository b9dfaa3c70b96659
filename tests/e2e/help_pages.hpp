#pragma once

// Reading dlock's --help pages: every page (found by walking the subcommands each page lists, so
// new ones are covered without changing the tests) and their sections.

#include "e2e/e2e_helpers.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

namespace dlock::test::e2e {

// The entry lines (not the continuations of wrapped descriptions) of the "Title:" sections of
// a help page, each up to the next blank line; "Options" also takes the groups ("TLS options").
inline std::vector<std::string> help_section(const std::string& help, const std::string& title) {
    std::vector<std::string> out;
    bool inside = false;
    for (const auto& line : lines(help)) {
        if (line == title + ":" || (title == "Options" && line.ends_with(" options:")))
            inside = true;
        else if (line.empty())
            inside = false;
        else if (inside && line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ')
            out.push_back(line);
    }
    return out;
}

// The first word of an entry line ("  -w,--wait DURATION ..." -> "-w,--wait").
inline std::string first_word(const std::string& line) {
    auto start = line.find_first_not_of(' ');
    if (start == std::string::npos)
        return "";
    return line.substr(start, line.find(' ', start) - start);
}

// `dlock [path] --help` and the pages of every subcommand below it, into `pages`.
inline void walk_help(const std::string& path, std::map<std::string, std::string>& pages) {
    std::vector<std::string> args;
    std::istringstream words(path);
    for (std::string word; words >> word;)
        args.push_back(word);
    args.push_back("--help");
    auto r = run_raw(args);
    INFO("dlock " << path << " --help, stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE_FALSE(r.out.empty());
    pages[path] = r.out;
    for (const auto& line : help_section(r.out, "Subcommands"))
        walk_help(path.empty() ? first_word(line) : path + " " + first_word(line), pages);
}

// Every help page, by subcommand ("" for `dlock --help`, "latch count-down", ...).
inline std::map<std::string, std::string> help_pages() {
    std::map<std::string, std::string> pages;
    walk_help("", pages);
    return pages;
}

} // namespace dlock::test::e2e
