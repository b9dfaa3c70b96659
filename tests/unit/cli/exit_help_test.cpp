#include "cli/exit_help.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

using dlock::cli::exit_status_help;
using dlock::cli::HelpPage;
namespace exit_code = dlock::exit_code;

namespace {

bool lists(const std::string& help, int code) {
    const std::string row = "\n  " + std::to_string(code) + " ";
    return help.find(row) != std::string::npos;
}

} // namespace

TEST_CASE("every exit status of dlock is on some help page", "[exit_help]") {
    std::string all;
    for (auto page : {HelpPage::dlock, HelpPage::run, HelpPage::sem_run, HelpPage::sem_status,
                      HelpPage::latch, HelpPage::status, HelpPage::history, HelpPage::release,
                      HelpPage::bench, HelpPage::config, HelpPage::metrics})
        all += exit_status_help(page);
    for (int code :
         {exit_code::ok, exit_code::nothing, exit_code::usage, exit_code::no_such_latch,
          exit_code::unavailable, exit_code::internal, exit_code::busy, exit_code::lease_lost,
          exit_code::not_executable, exit_code::not_found, exit_code::cannot_create}) {
        INFO("exit status " << code);
        CHECK(lists(all, code));
    }
}

TEST_CASE("every help page lists every exit status its subcommand can return", "[exit_help]") {
    using enum HelpPage;
    constexpr int N = -1; // the command's own status
    // What each subcommand can return, as the man page says (EXIT STATUS, and each command's
    // section); the top page lists them all.
    const std::vector<std::pair<HelpPage, std::vector<int>>> statuses{
        {dlock, {N, 0, 1, 64, 66, 69, 70, 73, 75, 76, 126, 127}},
        {run, {N, 64, 69, 70, 75, 76, 126, 127}},
        {sem_run, {N, 64, 69, 70, 75, 76, 126, 127}},
        {sem_status, {0, 1, 64, 69, 70}},
        {latch, {0, 64, 66, 69, 70, 75}},
        {status, {0, 1, 64, 69, 70}},
        {history, {0, 1, 64, 69, 70}},
        {release, {0, 1, 64, 69, 70}},
        {bench, {0, 64, 69, 70, 75}},
        {config, {0, 64, 70}},
        {check, {0, 1, 2, 3, 64, 70}},
        {metrics, {0, 64, 69, 70, 73}},
    };
    for (const auto& [page, codes] : statuses) {
        const auto help = exit_status_help(page);
        for (int code : codes) {
            INFO("help page " << static_cast<int>(page) << ", exit status " << code);
            if (code == N)
                CHECK(help.find("\n  N        ") != std::string::npos);
            else
                CHECK(lists(help, code));
        }
    }
}

TEST_CASE("a help page lists only the exit statuses of its subcommand", "[exit_help]") {
    const auto run = exit_status_help(HelpPage::run);
    CHECK(run.starts_with("\nExit status:\n  N        the command's own exit status"));
    CHECK(lists(run, exit_code::lease_lost));
    CHECK_FALSE(lists(run, exit_code::no_such_latch));

    const auto latch = exit_status_help(HelpPage::latch);
    CHECK(lists(latch, exit_code::no_such_latch));
    CHECK_FALSE(lists(latch, exit_code::lease_lost));
    CHECK(latch.find("128+N") == std::string::npos);

    const auto config = exit_status_help(HelpPage::config);
    CHECK_FALSE(lists(config, exit_code::unavailable)); // config never talks to Redis

    CHECK(exit_status_help(HelpPage::sem_status, "Exit status of sem status")
              .starts_with("\nExit status of sem status:\n"));
}

TEST_CASE("a meaning on several lines keeps its continuation under the first", "[exit_help]") {
    const auto status = exit_status_help(HelpPage::status);
    CHECK(status.find("a semaphore permit, or an\n           existing latch") != std::string::npos);
}
