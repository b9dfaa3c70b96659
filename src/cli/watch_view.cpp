#include "cli/watch_view.hpp"

#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "lock/runs.hpp"
#include "util/table.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

using Row = std::vector<std::string>;

// Every name of the reading, in the order of the first member that has it.
std::vector<std::string> names_of(const lock::StatusReading& reading) {
    std::vector<std::string> names;
    for (const auto& member : reading.members)
        if (member.report)
            for (const auto& s : member.report->names)
                names.push_back(s.name);
    return lock::distinct(names);
}

std::string ago(int64_t ms, int64_t now_ms) {
    return lock::format_age(Millis(now_ms - ms)) + " ago";
}

// "ok 5, failed 1, skipped_busy 2": the outcomes counted, none of the zeros.
std::string counts(const lock::RunStats& runs) {
    std::string out;
    for (const auto outcome : lock::kOutcomes)
        if (const int64_t n = runs.count(outcome); n > 0)
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", lock::outcome_name(outcome), n);
    return out.empty() ? "-" : out;
}

Row runs_row(const std::string& name, const lock::RunStats& runs, int64_t now_ms) {
    Row row{one_line(name), "-", "-", "-", "-", "-", "never", counts(runs)};
    if (const auto& last = runs.last_run) {
        row[1] = std::string(lock::outcome_name(last->outcome));
        row[2] = ago(last->end_ms, now_ms);
        row[3] = last->host;
        row[4] = format_duration(Millis(last->duration_ms));
        row[5] = last->exit_status < 0 ? "?" : std::to_string(last->exit_status);
    }
    if (const auto& ok = runs.last_success)
        row[6] = ago(ok->end_ms, now_ms);
    return row;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

std::string header_line(const WatchHeader& header, int64_t server_ms, bool stale) {
    // The way out before the address, which is the part a narrow terminal may cut.
    return fmt::format("server time {}{}  every {}  Ctrl-C to quit  prefix {} on {}",
                       server_ms > 0 ? lock::local_time(server_ms, server_ms) : "-",
                       stale ? " (stale)" : "", format_duration(header.interval),
                       one_line(header.prefix), one_line(header.redis));
}

} // namespace

std::string runs_table(const lock::StatusReading& reading) {
    const int64_t now_ms = reading.server_now_ms().value_or(0);
    std::vector<Row> rows{{"NAME", "LAST RUN", "ENDED", "HOST", "TOOK", "EXIT", "LAST OK", "RUNS"}};
    for (const auto& name : names_of(reading)) {
        const auto runs = lock::runs_of(reading, name);
        if (runs && !runs->empty())
            rows.push_back(runs_row(name, *runs, now_ms));
    }
    if (rows.size() == 1)
        return "no runs counted yet\n";
    return format_table(rows);
}

std::vector<std::string> watch_lines(const app::WatchState& state, const WatchHeader& header) {
    const app::StatusAnswer& answer = *state.last_good;
    std::vector<std::string> lines;
    if (state.failure)
        lines.push_back(fmt::format(
            "{} {}; retrying every {}", lock::local_time(state.failed_at_ms, state.failed_at_ms),
            one_line(state.failure->message), format_duration(header.interval)));
    lines.push_back(
        header_line(header, answer.reading.server_now_ms().value_or(0), state.failure != nullptr));
    lines.emplace_back();
    for (auto& line : split_lines(status_text(answer, header.prefix, header.style)))
        lines.push_back(std::move(line));
    lines.emplace_back();
    for (auto& line : split_lines(runs_table(answer.reading)))
        lines.push_back(std::move(line));
    return lines;
}

} // namespace dlock::cli
