#pragma once

#include <string>
#include <string_view>

namespace dlock::cli {

// The help pages with an "Exit status:" section (`dlock --help`, `dlock run --help`, ...).
enum class HelpPage {
    dlock,
    run,
    acquire,
    sem_run,
    sem_status,
    latch,
    status,
    history,
    forget,
    pause,
    resume,
    release,
    bench,
    config,
    check,
    metrics
};

// The "Exit status:" section of `page` (after a blank line, without a trailing newline),
// under `title`. Every page's rows come from the one table in exit_help.cpp, which says what
// each exit status means and on which pages it applies.
std::string exit_status_help(HelpPage page, std::string_view title = "Exit status");

} // namespace dlock::cli
