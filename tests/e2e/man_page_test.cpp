// The man page documents the binary: every subcommand and every long option that any --help
// lists appears in man/dlock.1 (found by walking the help output, so new subcommands and options
// are checked without touching this test), so does every row of the global option table (its
// flags, variables and config key), the section of `run`, `sem run` and `acquire` names every
// row of the run option table that subcommand takes, and groff formats it without warnings.

#include "cli/option_table.hpp"
#include "cli/run_option_table.hpp"
#include "e2e/e2e_helpers.hpp"
#include "e2e/help_pages.hpp"

#include <cctype>
#include <set>
#include <sstream>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

struct Help {
    std::set<std::string> subcommands; // "run", "latch count-down", ...
    std::set<std::string> long_options;
};

// The subcommands and long options of every help page.
Help walk() {
    Help help;
    for (const auto& [path, page] : help_pages()) {
        if (!path.empty())
            help.subcommands.insert(path);
        for (const auto& line : help_section(page, "Options")) {
            if (line.rfind("  -", 0) != 0)
                continue;
            std::string names = first_word(line);
            names = names.substr(0, names.find('{')); // CLI11 may append {default}
            std::stringstream split(names);
            for (std::string name; std::getline(split, name, ',');)
                if (name.rfind("--", 0) == 0)
                    help.long_options.insert(name);
        }
    }
    return help;
}

// The man page source as plain text: font escapes and \& dropped, \- and \(en turned into -.
std::string man_text() {
    auto roff = read_file(std::string(DLOCK_SOURCE_DIR) + "/man/dlock.1");
    REQUIRE_FALSE(roff.empty());
    std::string out;
    for (size_t i = 0; i < roff.size(); ++i) {
        if (roff[i] != '\\' || i + 1 == roff.size()) {
            out.push_back(roff[i]);
            continue;
        }
        const char next = roff[i + 1];
        if (next == '-') {
            out.push_back('-');
            ++i;
        } else if (next == '&') {
            ++i;
        } else if (next == 'f' && i + 2 < roff.size()) {
            i += 2; // \fB, \fI, \fR, \fP
        } else {
            out.push_back(roff[i]);
        }
    }
    return out;
}

bool mentions_option(const std::string& text, const std::string& option) {
    for (auto at = text.find(option); at != std::string::npos; at = text.find(option, at + 1)) {
        const size_t end = at + option.size();
        const bool whole =
            end == text.size() ||
            !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-');
        if (whole)
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("the man page documents every subcommand and long option of --help", "[e2e][man]") {
    const Help help = walk();
    // Sanity: the walk found the known parts of the interface.
    CHECK(help.subcommands.count("run") == 1);
    CHECK(help.subcommands.count("latch count-down") == 1);
    CHECK(help.subcommands.count("config") == 1);
    CHECK(help.long_options.count("--wait") == 1);
    CHECK(help.long_options.count("--log-format") == 1);
    CHECK(help.long_options.count("--no-syslog") == 1);

    const auto text = man_text();
    const auto synopsis_start = text.find(".SH SYNOPSIS");
    const auto synopsis_end = text.find(".SH", synopsis_start + 1);
    REQUIRE(synopsis_start != std::string::npos);
    const auto synopsis = text.substr(synopsis_start, synopsis_end - synopsis_start);
    for (const auto& sub : help.subcommands) {
        INFO("subcommand '" << sub << "' is missing from the man page's SYNOPSIS");
        CHECK(synopsis.find(".B " + sub) != std::string::npos);
    }
    for (const auto& option : help.long_options) {
        if (option == "--help" || option == "--version")
            continue; // documented once, not per subcommand
        INFO("option " << option << " is missing from the man page");
        CHECK(mentions_option(text, option));
    }
    CHECK(mentions_option(text, "--help"));
    CHECK(mentions_option(text, "--version"));
}

TEST_CASE("the man page documents every global option's flags, variables and config key",
          "[e2e][man]") {
    const auto text = man_text();
    auto section = [&](const std::string& title) {
        const auto start = text.find(".SH " + title);
        REQUIRE(start != std::string::npos);
        return text.substr(start, text.find("\n.SH ", start + 1) - start);
    };
    const auto options = section("GLOBAL OPTIONS");
    // The config keys: in CONFIGURATION, the TLS ones with the rest of TLS.
    const auto configuration = section("CONFIGURATION") + section("TLS");
    for (const auto& row : dlock::cli::global_option_table()) {
        INFO("global option " << row.name);
        CHECK(mentions_option(configuration, std::string(row.name)));
        for (auto variable : {row.env, row.fallback_env})
            if (!variable.empty())
                CHECK(mentions_option(text, std::string(variable)));
        for (auto names : {row.flag, row.off_flag}) {
            std::stringstream split{std::string(names)};
            for (std::string name; std::getline(split, name, ',');)
                CHECK(mentions_option(options, name));
        }
    }
}

TEST_CASE("the man page's section of run, sem run and acquire names each run option it takes",
          "[e2e][man]") {
    using dlock::cli::RunKind;
    const auto text = man_text();
    auto subsection = [&](const std::string& title) {
        const auto start = text.find(".SS \"" + title);
        REQUIRE(start != std::string::npos);
        return text.substr(start, text.find("\n.SS ", start + 1) - start);
    };
    const std::pair<RunKind, std::string> pages[] = {{RunKind::run, subsection("run ")},
                                                     {RunKind::semaphore, subsection("sem run ")},
                                                     {RunKind::acquire, subsection("acquire ")}};
    for (const auto& row : dlock::cli::run_option_table())
        for (const auto& [kind, section] : pages) {
            if (!row.taken_by(kind))
                continue;
            INFO("run option " << row.flag << " in the section of " << section.substr(0, 40));
            bool named = false;
            std::stringstream split{std::string(row.flag)};
            for (std::string name; std::getline(split, name, ',');)
                named = named || mentions_option(section, name);
            CHECK(named);
        }
}

TEST_CASE("groff formats the man page without warnings", "[e2e][man]") {
    const std::string page = std::string(DLOCK_SOURCE_DIR) + "/man/dlock.1";
    Process probe({"-c", "command -v groff"}, {}, "/bin/sh");
    if (probe.wait().exit_code != 0) {
        WARN("groff is not installed: skipped");
        return;
    }
    Process groff({"-c", "groff -man -Tutf8 -ww -z \"$1\"", "sh", page}, {}, "/bin/sh");
    auto r = groff.wait();
    INFO("groff: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
}
