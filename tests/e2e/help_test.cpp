// The layout of --help: the top page leads with usage, examples and the common options; every
// page fits 100 columns without the parser's notes; run's usage shows the command; exit statuses.

#include "e2e/help_pages.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Where `text` first occurs in `page` (npos when it does not).
size_t at(const std::string& page, const std::string& text) {
    return page.find(text);
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines)
        out += line + "\n";
    return out;
}

} // namespace

TEST_CASE("dlock --help: usage, examples and common options first, the rarer groups after",
          "[e2e][help]") {
    const auto page = help_pages().at("");
    INFO(page);
    REQUIRE(at(page, "\nUsage: dlock ") != std::string::npos);
    CHECK(at(page, "\nUsage: dlock ") < at(page, "\nExamples:\n"));
    CHECK(at(page, "\nExamples:\n") < at(page, "\nOptions:\n"));
    CHECK(at(page, "\nOptions:\n") < at(page, "\nSubcommands:\n"));
    for (const std::string example :
         {"  dlock run nightly-job -- ./backup.sh  ",
          "  dlock run -w 5m nightly-job -- ./backup.sh",
          "  dlock run -E 1 nightly-job -- ./backup.sh", "  dlock status  "})
        CHECK(at(page, "\n" + example) < at(page, "\nOptions:\n"));

    const auto common = joined(help_section(page, "Options")); // with the groups
    std::string options;
    for (const auto& line : lines(page.substr(at(page, "\nOptions:\n") + 1))) {
        if (line.empty())
            break;
        options += line + "\n";
    }
    for (const std::string flag : {"--redis URL", "--password-file FILE", "-v,--verbose",
                                   "-q,--quiet", "--prefix", "--syslog", "--log-format"})
        CHECK(contains(options, "  " + flag));
    for (const std::string flag :
         {"--tls-", "--sentinel-", "--min-replicas", "--replica-timeout", "--connect-timeout"})
        CHECK_FALSE(contains(options, flag));

    const size_t subcommands = at(page, "\nSubcommands:\n");
    for (const auto& [group, flag] : std::vector<std::pair<std::string, std::string>>{
             {"TLS options", "--tls-ca-file FILE"},
             {"Sentinel options", "--sentinel-user USER"},
             {"Replica options", "--min-replicas N|auto"},
             {"Timeout options", "--connect-timeout DURATION"}}) {
        INFO(group);
        const size_t heading = at(page, "\n" + group + ":\n");
        REQUIRE(heading != std::string::npos);
        CHECK(heading > subcommands);
        CHECK(heading < at(page, "\nExit status:\n"));
        CHECK(at(page, "\n  " + flag) > heading);
        CHECK(contains(common, "  " + flag));
    }
}

TEST_CASE("no help page shows the parser's notes or a line over 100 columns", "[e2e][help]") {
    for (const auto& [path, page] : help_pages()) {
        INFO("dlock " << path << " --help:\n" << page);
        for (const std::string note : {"Excludes", "Needs:", "REQUIRED", " TEXT", "[Option Group",
                                       "{default}", " ... ", "Usage:\n"})
            CHECK_FALSE(contains(page, note));
        for (const auto& line : lines(page)) {
            INFO(line);
            CHECK(line.size() <= 100);
        }
    }
}

TEST_CASE("run and sem run --help show the command in their usage lines", "[e2e][help]") {
    const auto pages = help_pages();
    CHECK(contains(pages.at("run"), "\nUsage: dlock run [OPTIONS] NAME... -- COMMAND [ARGS...]\n"
                                    "       dlock run [OPTIONS] NAME... -c STRING\n"));
    CHECK(contains(pages.at("sem run"),
                   "\nUsage: dlock sem run [OPTIONS] -p N NAME -- COMMAND [ARGS...]\n"
                   "       dlock sem run [OPTIONS] -p N NAME -c STRING\n"));
    CHECK(contains(pages.at("run"), "\n  NAME...  "));
}

TEST_CASE("the top page and every latch page list exit status 66", "[e2e][help]") {
    for (const auto& [path, page] : help_pages()) {
        if (!path.empty() && !path.starts_with("latch"))
            continue;
        INFO("dlock " << path << " --help");
        CHECK(contains(page, "\n  66       "));
    }
    CHECK(contains(help_pages().at(""), "\n  0        "));
}

TEST_CASE("every help page lists its exit statuses in numeric order, the command's own first",
          "[e2e][help][newcomer]") {
    for (const auto& [path, page] : help_pages()) {
        INFO("dlock " << path << " --help");
        const size_t start = page.find("\nExit status:\n");
        if (start == std::string::npos)
            continue;
        int last = -1;
        for (const auto& line : lines(page.substr(start + 14))) {
            if (line.size() < 3 || line[2] == ' ')
                continue; // a continuation line
            const std::string code = line.substr(2, line.find(' ', 2) - 2);
            const int value = code == "N" ? -1 : std::stoi(code);
            CHECK(value >= last);
            last = value;
        }
    }
}

TEST_CASE("run --help has examples, and the top page's example names -l for what it is",
          "[e2e][help][newcomer]") {
    const auto pages = help_pages();
    const auto& run_page = pages.at("run");
    CHECK(contains(run_page, "\nExamples:\n  dlock run nightly-job -- ./backup.sh"));
    CHECK(contains(pages.at("sem run"), "\nExamples:\n  dlock sem run -p 4"));
    CHECK(contains(pages.at(""), "(-l: every column)"));
    // The top page's release-only statuses say so.
    CHECK(contains(pages.at(""), "  76       release: the lease was lost while held"));
    CHECK_FALSE(contains(pages.at(""), "without --force"));
    // flock's aliases are accepted, not listed.
    CHECK_FALSE(contains(run_page, "--nonblock"));
}
