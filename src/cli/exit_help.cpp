#include "cli/exit_help.hpp"

#include "util/exit_codes.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <initializer_list>
#include <vector>

namespace dlock::cli {
namespace {

using enum HelpPage;

struct Row {
    int code; // kCommandStatus: the command's own
    const char* meaning;
    std::initializer_list<HelpPage> pages;
};

constexpr int kCommandStatus = -1;

// Every exit status dlock documents; a status whose meaning differs between subcommands has a
// row per meaning. The help lists them in numeric order (the command's own first), and the rows
// of one status in this order. Keep in step with util/exit_codes.hpp, the
// docs/reference.md ("Exit status") and man/dlock.1 (EXIT STATUS).
const Row kRows[] = {
    {kCommandStatus,
     "the command's own exit status; 128+N if it died of signal N",
     {dlock, run, sem_run}},
    {exit_code::ok, "success; status and sem status: something is held", {dlock}},
    {exit_code::ok, "held: the assignments were printed, a keeper renews the lease", {acquire}},
    {exit_code::ok,
     "something is held: a lock (also one kept by --min-hold), a semaphore permit, or an\n"
     "existing latch (with NAMEs: at least one of them; with --names: some name is listed)",
     {status}},
    {exit_code::ok, "at least one permit is held", {sem_status}},
    {exit_code::ok, "entries were shown", {history}},
    {exit_code::ok, "every NAME was free: what it left is gone (or there was nothing)", {forget}},
    {exit_code::ok, "every NAME is paused (under Redlock: on a majority of members)", {pause}},
    {exit_code::ok, "every NAME was paused, and is resumed", {resume}},
    {exit_code::ok,
     "something was held and is now broken (its holders stop at their next renewal);\n"
     "without --force: the hold was released",
     {release}},
    {exit_code::ok,
     "created, refreshed or reset; counted down; the count is zero (wait); the latch exists\n"
     "(status)",
     {latch}},
    {exit_code::ok, "measured; the figures were printed", {bench}},
    {exit_code::ok, "the settings were shown", {config}},
    {exit_code::ok, "the metrics were written", {metrics}},
    {exit_code::nothing,
     "status: nothing held; history: none; release --force: the lock was not held; forget:\n"
     "a NAME is held; resume: a NAME was not paused",
     {dlock}},
    {exit_code::nothing, "nothing is held (every NAME is free)", {status}},
    {exit_code::nothing, "no permit is held", {sem_status}},
    {exit_code::nothing, "NAME has no history (never used, or unused for 30 days)", {history}},
    {exit_code::nothing,
     "nothing was held (the lock was free, the permit gone); nothing changed",
     {release}},
    {exit_code::nothing,
     "a NAME is held: it was left as it is (the free ones were forgotten)",
     {forget}},
    {exit_code::nothing, "a NAME was not paused (the paused ones were resumed)", {resume}},
    {exit_code::check_ok, "OK: every NAME succeeded within --max-age (and --warn-age)", {check}},
    {exit_code::check_warning,
     "WARNING: a last success older than --warn-age, or a run after it failed, timed out\n"
     "or lost its lease",
     {check}},
    {exit_code::check_critical, "CRITICAL: a last success older than --max-age, or none", {check}},
    {exit_code::check_unknown,
     "UNKNOWN: Redis unreachable, authentication failed, or an unexpected reply",
     {check}},
    {exit_code::check_warning, "check: WARNING", {dlock}},
    {exit_code::check_critical, "check: CRITICAL", {dlock}},
    {exit_code::check_unknown, "check: UNKNOWN (also when Redis is unreachable)", {dlock}},
    {exit_code::busy,
     "lock not obtained: held elsewhere, paused, or --wait timed out (change with -E)",
     {dlock, run, acquire}},
    {exit_code::busy,
     "no permit obtained: all are held, or --wait timed out (change with -E)",
     {sem_run}},
    {exit_code::busy, "wait timed out (change with -E)", {latch}},
    {exit_code::busy, "the bench keys are in use: another bench is running", {bench}},
    {exit_code::lease_lost,
     "lease lost while the command ran; the command was stopped",
     {dlock, run, sem_run}},
    {exit_code::lease_lost,
     "without --force: the lease was lost while held (the owner was signalled), or the hold\n"
     "is no longer kept (released already, or its keeper died)",
     {release}},
    {exit_code::lease_lost,
     "release: the lease was lost while held (the owner was signalled), or the hold is no\n"
     "longer kept (released already, or its keeper died)",
     {dlock}},
    {exit_code::timed_out,
     "without --force: the owner held the lock past acquire --max-run and was stopped",
     {release}},
    {exit_code::timed_out,
     "the command ran longer than --max-run and was stopped",
     {dlock, run, sem_run}},
    {exit_code::timed_out,
     "release: the owner held the lock past acquire --max-run and was stopped",
     {dlock}},
    {exit_code::usage,
     "usage error (bad option, name, duration, URL or config file); nothing changed in Redis",
     {dlock, run, acquire, sem_status, status, history, forget, pause, resume, bench, metrics}},
    {exit_code::usage,
     "usage error (bad option, name, duration, URL or config file; a different -p than the\n"
     "holders'); nothing was changed in Redis",
     {sem_run}},
    {exit_code::usage, "usage error (bad option, environment variable or config file)", {config}},
    {exit_code::usage,
     "usage error (bad option, name or duration; no --max-age); a monitoring system shows\n"
     "it as UNKNOWN or out of range; nothing was read",
     {check}},
    {exit_code::usage,
     "usage error (bad option, name, count, duration; create with a different COUNT, or on a\n"
     "latch that reached zero, without --reset)",
     {latch}},
    {exit_code::usage,
     "usage error (also: --force missing, a malformed permit id; no or a malformed hold;\n"
     "a hold of another user)",
     {release}},
    {exit_code::no_such_latch, "no such latch (never created, or its TTL ran out)", {latch}},
    {exit_code::no_such_latch, "latch: no such latch (never created, or its TTL ran out)", {dlock}},
    {exit_code::unavailable,
     "Redis unreachable, or authentication failed",
     {dlock, run, acquire, sem_run, sem_status, latch, status, history, forget, pause, release,
      bench}},
    {exit_code::unavailable,
     "Redis unreachable, authentication failed, or a Redlock member that kept its pause",
     {resume}},
    {exit_code::unavailable,
     "Redis unreachable, or authentication failed (dlock_up 0 was written all the same)",
     {metrics}},
    {exit_code::internal,
     "internal error, or stdout could not be written (a closed pipe ends dlock by SIGPIPE)",
     {dlock, run, acquire, sem_run, sem_status, latch, status, history, forget, pause, resume,
      release, bench, config, check, metrics}},
    {exit_code::cannot_create,
     "metrics --output: FILE could not be written (the old FILE is kept)",
     {dlock, metrics}},
    {exit_code::not_executable, "command found but not executable", {dlock, run, sem_run}},
    {exit_code::not_found, "command not found", {dlock, run, sem_run}},
};

bool applies(const Row& row, HelpPage page) {
    for (HelpPage p : row.pages)
        if (p == page)
            return true;
    return false;
}

} // namespace

std::string exit_status_help(HelpPage page, std::string_view title) {
    std::vector<const Row*> rows;
    for (const Row& row : kRows)
        if (applies(row, page))
            rows.push_back(&row);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row* a, const Row* b) { return a->code < b->code; });
    std::string out = fmt::format("\n{}:", title);
    for (const Row* row_of_page : rows) {
        const Row& row = *row_of_page;
        const std::string code = row.code == kCommandStatus ? "N" : std::to_string(row.code);
        std::string meaning = row.meaning;
        // Continuation lines line up under the first.
        for (size_t nl = meaning.find('\n'); nl != std::string::npos;
             nl = meaning.find('\n', nl + 1))
            meaning.insert(nl + 1, std::string(11, ' '));
        out += fmt::format("\n  {:<9}{}", code, meaning);
    }
    return out;
}

} // namespace dlock::cli
