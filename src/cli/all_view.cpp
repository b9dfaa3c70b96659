#include "cli/all_view.hpp"

#include "cli/status_view.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "lock/runs.hpp"
#include "util/json.hpp"
#include "util/table.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

using Row = std::vector<std::string>;

constexpr size_t kTableWidth = 100;
constexpr size_t kHostColumn = 5;
constexpr size_t kMinHost = 12;

// Every name of the reading, in the order of the first member that has it.
std::vector<std::string> names_of(const lock::StatusReading& reading) {
    std::vector<std::string> names;
    for (const auto& member : reading.members)
        if (member.report)
            for (const auto& s : member.report->names)
                names.push_back(s.name);
    return lock::distinct(names);
}

struct KindState {
    std::string kind, state;
};

// What the name is now, as the first member that has it says.
KindState kind_state(const lock::StatusReading& reading, const std::string& name) {
    const auto found = reading.of(name);
    if (found.empty())
        return {"lock", "?"};
    const lock::NameStatus& s = *found.front();
    const bool paused = reading.pause_of(name).has_value();
    if (paused && s.lock.state == lock::LockStatus::State::free)
        return {"lock", "paused"};
    if (s.lock.state != lock::LockStatus::State::free || paused || (!s.semaphore && !s.latch))
        return {"lock", std::string(lock::state_name(s.lock.state)) + (paused ? ", paused" : "")};
    if (s.semaphore)
        return {"semaphore", fmt::format("{}/{} used", s.semaphore->used(), s.semaphore->limit)};
    return {"latch", fmt::format("{} left", s.latch->count)};
}

std::string ago(int64_t ms, int64_t now_ms) {
    return lock::format_age(Millis(now_ms - ms)) + " ago";
}

Row name_row(const lock::StatusReading& reading, const std::string& name, int64_t now_ms) {
    const auto [kind, state] = kind_state(reading, name);
    Row row{name, kind, state, "-", "-", "-", "-", "-", "never"};
    const auto runs = lock::runs_of(reading, name);
    if (!runs)
        return row;
    if (const auto& last = runs->last_run) {
        row[3] = std::string(lock::outcome_name(last->outcome));
        row[4] = ago(last->end_ms, now_ms);
        row[5] = last->host;
        row[6] = format_duration(Millis(last->duration_ms));
        row[7] = last->exit_status < 0 ? "?" : std::to_string(last->exit_status);
    }
    if (const auto& ok = runs->last_success)
        row[8] = ago(ok->end_ms, now_ms);
    return row;
}

std::string run_json(const std::optional<lock::RunRecord>& run) {
    if (!run)
        return "null";
    return fmt::format(
        R"({{"outcome":{},"end_ms":{},"host":{},"duration_ms":{},"exit_status":{}}})",
        json_string(lock::outcome_name(run->outcome)), run->end_ms, json_string(run->host),
        run->duration_ms, run->exit_status < 0 ? "null" : std::to_string(run->exit_status));
}

std::string counts_json(const std::optional<lock::RunStats>& runs) {
    std::string out = "{";
    for (const auto outcome : lock::kOutcomes)
        out +=
            fmt::format("{}{}:{}", out.size() > 1 ? "," : "",
                        json_string(lock::outcome_name(outcome)), runs ? runs->count(outcome) : 0);
    return out + "}";
}

std::string name_json(const lock::StatusReading& reading, const std::string& name) {
    const auto [kind, state] = kind_state(reading, name);
    const auto runs = lock::runs_of(reading, name);
    return fmt::format(R"({{"name":{},"kind":{},"state":{},"paused":{},"last_run":{},)"
                       R"("last_success":{},"runs":{}}})",
                       json_string(name), json_string(kind), json_string(state),
                       pause_json(reading.pause_of(name)),
                       run_json(runs ? runs->last_run : std::nullopt),
                       run_json(runs ? runs->last_success : std::nullopt), counts_json(runs));
}

} // namespace

std::string all_table(const app::StatusAnswer& answer, const std::string& prefix) {
    const auto names = names_of(answer.reading);
    if (names.empty())
        return fmt::format("nothing under prefix {}\n", one_line(prefix));
    const int64_t now_ms = answer.reading.server_now_ms().value_or(0);
    std::vector<Row> rows{
        {"NAME", "KIND", "STATE", "LAST RUN", "ENDED", "HOST", "TOOK", "EXIT", "LAST OK"}};
    for (const auto& name : names)
        rows.push_back(name_row(answer.reading, name, now_ms));
    return format_table(rows, kTableWidth, {{kHostColumn, kMinHost}});
}

std::string all_json(const app::StatusAnswer& answer) {
    std::string out = "[";
    for (const auto& name : names_of(answer.reading))
        out += (out.size() > 1 ? "," : "") + name_json(answer.reading, name);
    return out + "]\n";
}

} // namespace dlock::cli
