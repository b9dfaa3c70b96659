#include "app/history.hpp"

#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "util/exit_codes.hpp"
#include "util/json.hpp"
#include "util/output.hpp"
#include "util/table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>

namespace dlock::app {
namespace {

// Fields written as JSON numbers (docs/reference.md, "dlock history"); everything else is a string.
constexpr std::array<std::string_view, 16> kNumericFields{
    "pid",         "fence",         "start_ms",       "end_ms",  "duration_ms",
    "exit_status", "held_until_ms", "waited_ms",      "waiters", "other_pid",
    "other_fence", "other_count",   "other_since_ms", "woken",   "max_run_ms",
    "slot"};

bool is_number(std::string_view text) {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    return ec == std::errc() && end == text.data() + text.size();
}

std::string entry_json(const lock::HistoryEntry& e) {
    std::string out = fmt::format("{{\"id\":{},\"time_ms\":{}", json_string(e.id), e.time_ms);
    for (const auto& [k, v] : e.fields) {
        const bool numeric =
            std::find(kNumericFields.begin(), kNumericFields.end(), k) != kNumericFields.end() &&
            is_number(v);
        out += fmt::format(",{}:{}", json_string(k), numeric ? v : json_string(v));
    }
    return out + "}";
}

// The other party of a skip, a forced release or a lost lease.
std::string other_party(const lock::HistoryEntry& e) {
    // Under --compat the other side is known by its owner value alone.
    if (const auto format = e.field("compat"); !format.empty() && !e.field("other_command").empty())
        return fmt::format("a {} client (owner {})", format, e.field("other_command"));
    const auto found = e.other();
    if (!found)
        return "";
    const lock::HolderInfo& other = *found;
    std::string out = lock::describe_holder(other, e.time_ms);
    if (!other.user.empty())
        out += " user " + other.user;
    if (!other.command.empty())
        out += " running " + other.command;
    if (const auto n = e.number("other_count"); n > 1)
        out += fmt::format(" and {} more", n - 1);
    return out;
}

// What a pause, a resume or a skip of a paused name says: "paused by alice@ops-1 until 14:00:00".
std::string pause_note(const lock::HistoryEntry& e, std::string_view event) {
    const std::string until = e.field("until_ms").empty()
                                  ? "until resumed"
                                  : "until " + lock::local_time(e.number("until_ms"), e.time_ms);
    const std::string reason =
        e.field("reason").empty() ? "" : fmt::format(" ({})", e.field("reason"));
    if (event == "pause")
        return until + reason;
    if (event == "resume")
        return fmt::format("paused by {}{}", e.field("paused_by"), reason);
    return fmt::format("paused by {} {}", e.field("paused_by"), until);
}

std::string details(const lock::HistoryEntry& e) {
    std::string out(e.field("command"));
    const auto event = e.field("event");
    const std::string other = other_party(e);
    std::vector<std::string> notes;
    if (!e.field("waited_ms").empty())
        notes.push_back("waited " + format_duration(Millis(e.number("waited_ms"))));
    if (event == "pause" || event == "resume" || (event == "skip" && e.field("reason") == "paused"))
        notes.push_back(pause_note(e, event));
    else if (event == "skip" && !e.field("reason").empty()) // --once-per: the slot was done
        notes.emplace_back(e.field("reason"));
    else if (event == "skip")
        notes.push_back(other.empty() ? "free, but waiters were queued first" : "held by " + other);
    if (event == "timeout")
        notes.push_back("stopped: ran longer than --max-run " +
                        format_duration(Millis(e.number("max_run_ms"))));
    if (event == "force" && !e.field("compat").empty())
        notes.push_back("broke " + other);
    else if (event == "force")
        notes.push_back(fmt::format(
            "broke {}{}; woke {} waiter(s)",
            e.field("permit").empty() ? "" : fmt::format("permit {} held by ", e.field("permit")),
            other, e.number("woken")));
    if (const auto until = e.field("held_until_ms"); !until.empty())
        notes.push_back(fmt::format("{}held until {} by --min-hold",
                                    event == "skip" ? "finished, " : "",
                                    lock::local_time(e.number("held_until_ms"), e.time_ms)));
    if (const auto members = e.field("members"); !members.empty())
        notes.push_back(fmt::format("on {} members", members));
    for (const auto& note : notes)
        out += (out.empty() ? "" : "; ") + note;
    return out;
}

std::vector<std::string> entry_row(const lock::HistoryEntry& e) {
    const auto token = !e.field("fence").empty() ? e.field("fence") : e.field("other_fence");
    const auto duration = e.field("duration_ms");
    const auto exit_status = e.field("exit_status");
    std::string event(e.field("event"));
    if (e.field("mode") == "s")
        event += " (shared)";
    else if (e.field("mode") == "permit")
        event += " (permit)";
    return {lock::local_datetime(e.time_ms),
            event,
            std::string(e.field("host")),
            std::string(e.field("pid")),
            std::string(e.field("user")),
            token.empty() ? "-" : std::string(token),
            duration.empty() ? "-" : format_duration(Millis(e.number("duration_ms"))),
            exit_status.empty() ? "-" : std::string(exit_status),
            details(e)};
}

} // namespace

Result<int> history(lock::Store& store, const Target& target, const HistoryOptions& options) {
    auto entries = store.history(lock::Keys::of(target.prefix, options.name), options.count);
    TRY(entries);
    if (options.json) {
        std::string out;
        for (const auto& e : *entries)
            out += (out.empty() ? "[\n" : ",\n") + entry_json(e);
        out::print("{}\n", out.empty() ? "[]" : out + "\n]");
    } else if (entries->empty()) {
        out::print("no history for {}\n", options.name);
    } else {
        std::vector<std::vector<std::string>> rows{
            {"TIME", "EVENT", "HOST", "PID", "USER", "TOKEN", "DURATION", "EXIT", "DETAILS"}};
        for (const auto& e : *entries)
            rows.push_back(entry_row(e));
        out::print("{}", format_table(rows));
    }
    return entries->empty() ? exit_code::nothing : exit_code::ok;
}

} // namespace dlock::app
