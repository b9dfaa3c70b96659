#include "cli/status_view.hpp"

#include "lock/describe.hpp"
#include "util/json.hpp"
#include "util/table.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

using Row = std::vector<std::string>;

struct Column {
    const char* title;
    bool wide_only; // shown by --wide alone: the default view fits 100 columns
};

constexpr Column kColumns[] = {
    {"NAME", false}, {"KIND", false}, {"STATE", false},   {"HOST", false},
    {"PID", false},  {"USER", true},  {"SINCE", false},   {"TTL", false},
    {"TOKEN", true}, {"HOLDS", true}, {"WAITERS", false}, {"COMMAND", false},
};

// The default view's width, for a typical holder: a longer COMMAND is cut to fit, then a longer
// HOST (keeping its start, which names the machine), each never below its minimum.
constexpr size_t kTableWidth = 100;
constexpr size_t kMinCommand = 12;
constexpr size_t kMinHost = 12;

// What the rows are built for.
struct View {
    int64_t now_ms;
    bool wide;
};

std::string ttl(Millis left) {
    return left.count() < 0 ? "none" : format_duration(left);
}

// When it was acquired (local time), and with --wide how long ago.
std::string since(const lock::HolderInfo& i, View view) {
    const std::string when = lock::local_time(i.since_ms, view.now_ms);
    if (!view.wide)
        return when;
    return fmt::format("{} ({} ago)", when, lock::format_age(Millis(view.now_ms - i.since_ms)));
}

// NAME KIND STATE, then one holder's columns, then WAITERS and COMMAND.
Row holder_row(const std::string& name, const char* kind, const std::string& state,
               const lock::HolderStatus& h, int64_t waiters, View view) {
    const auto& i = h.info;
    return {name,
            kind,
            state,
            i.host,
            std::to_string(i.pid),
            i.user,
            since(i, view),
            ttl(h.ttl_left),
            std::to_string(i.fence),
            std::to_string(h.holds),
            std::to_string(waiters),
            i.command};
}

Row empty_row(const std::string& name, const char* kind, const std::string& state,
              const std::string& ttl_text, int64_t waiters) {
    return {name, kind, state, "-", "-", "-", "-", ttl_text, "-", "-", std::to_string(waiters),
            "-"};
}

// The header and `rows` as the table of `view`: every column with --wide, else those that fit.
std::string format_rows(const std::vector<Row>& rows, View view) {
    std::vector<Row> shown(rows.size() + 1);
    for (size_t c = 0; c < std::size(kColumns); ++c) {
        if (kColumns[c].wide_only && !view.wide)
            continue;
        shown[0].push_back(kColumns[c].title);
        for (size_t r = 0; r < rows.size(); ++r)
            shown[r + 1].push_back(rows[r][c]);
    }
    if (view.wide)
        return format_table(shown);
    const auto column = [&](const char* title) {
        return static_cast<size_t>(std::find(shown[0].begin(), shown[0].end(), title) -
                                   shown[0].begin());
    };
    return format_table(shown, kTableWidth,
                        {{column("COMMAND"), kMinCommand}, {column("HOST"), kMinHost}});
}

// `state`, and the name's pause if any: "paused" (with --wide, by whom, until when and why).
std::string with_pause(const std::string& state, const lock::NameStatus& s, View view) {
    if (!s.paused)
        return state;
    const std::string paused = view.wide ? lock::describe_pause(*s.paused, view.now_ms) : "paused";
    return state == "free" ? paused : state + ", " + paused;
}

void lock_rows(const lock::NameStatus& s, View view, std::vector<Row>& rows) {
    const auto& l = s.lock;
    if (l.holders.empty()) {
        // A free lock is shown when asked for, or when waiters are queued on it or it is paused.
        if (l.waiters > 0 || s.paused || (!s.semaphore && !s.latch))
            rows.push_back(empty_row(s.name, "lock", with_pause("free", s, view), "-", l.waiters));
        return;
    }
    std::string state = lock::state_name(l.state);
    // The default view's "min-hold" fits 100 columns: its TTL says how long it is held on.
    if (l.state == lock::LockStatus::State::min_hold && view.wide)
        state = "finished, held until " + lock::local_time(l.held_until_ms, view.now_ms);
    state = with_pause(state, s, view);
    for (const auto& h : l.holders)
        rows.push_back(holder_row(s.name, "lock", state, h, l.waiters, view));
}

void semaphore_rows(const lock::NameStatus& s, View view, std::vector<Row>& rows) {
    const auto& sem = *s.semaphore;
    const std::string state = fmt::format("{}/{} used", sem.used(), sem.limit);
    if (sem.holders.empty())
        rows.push_back(empty_row(s.name, "semaphore", state, "-", sem.waiters));
    for (const auto& h : sem.holders)
        rows.push_back(holder_row(s.name, "semaphore", state, h, sem.waiters, view));
}

std::string holder_json(const lock::HolderStatus& h, int64_t now_ms) {
    const auto& i = h.info;
    return fmt::format("{{\"host\":{},\"pid\":{},\"user\":{},\"command\":{},\"since_ms\":{},"
                       "\"age_ms\":{},\"ttl_ms\":{},\"fence\":{},\"holds\":{}}}",
                       json_string(i.host), i.pid, json_string(i.user), json_string(i.command),
                       i.since_ms, now_ms - i.since_ms, h.ttl_left.count(), i.fence, h.holds);
}

std::string holders_json(const std::vector<lock::HolderStatus>& holders, int64_t now_ms) {
    std::string out = "[";
    for (const auto& h : holders) {
        if (out.size() > 1)
            out += ',';
        out += holder_json(h, now_ms);
    }
    return out + "]";
}

std::string name_json(const lock::NameStatus& s, int64_t now_ms) {
    const auto& l = s.lock;
    std::string out = fmt::format(
        "{{\"name\":{},\"in_use\":{},\"paused\":{},\"lock\":{{\"state\":\"{}\","
        "\"waiters\":{},\"held_until_ms\":{},\"holders\":{}}}",
        json_string(s.name), s.in_use(), pause_json(s.paused), lock::state_name(l.state), l.waiters,
        l.held_until_ms > 0 ? std::to_string(l.held_until_ms) : "null",
        holders_json(l.holders, now_ms));
    if (s.semaphore)
        out += fmt::format(",\"semaphore\":{{\"limit\":{},\"used\":{},\"waiters\":{},"
                           "\"holders\":{}}}",
                           s.semaphore->limit, s.semaphore->used(), s.semaphore->waiters,
                           holders_json(s.semaphore->holders, now_ms));
    else
        out += ",\"semaphore\":null";
    if (s.latch)
        out += fmt::format(",\"latch\":{{\"count\":{},\"initial\":{},\"ttl_ms\":{},"
                           "\"waiters\":{}}}}}",
                           s.latch->count, s.latch->initial, s.latch->ttl_left.count(),
                           s.latch->waiters);
    else
        out += ",\"latch\":null}";
    return out;
}

} // namespace

std::string pause_json(const std::optional<lock::Pause>& p) {
    if (!p)
        return "null";
    return fmt::format("{{\"by\":{},\"reason\":{},\"since_ms\":{},\"until_ms\":{}}}",
                       json_string(p->host.empty() ? p->by : p->by + "@" + p->host),
                       json_string(p->reason), p->since_ms,
                       p->until_ms > 0 ? std::to_string(p->until_ms) : "null");
}

std::string status_table(const lock::StatusReport& report, StatusStyle style) {
    const View view{report.server_now_ms, style == StatusStyle::wide};
    std::vector<Row> rows;
    for (const auto& s : report.names) {
        lock_rows(s, view, rows);
        if (s.semaphore)
            semaphore_rows(s, view, rows);
        if (s.latch)
            rows.push_back(empty_row(s.name, "latch",
                                     fmt::format("count {}/{}", s.latch->count, s.latch->initial),
                                     ttl(s.latch->ttl_left), s.latch->waiters));
    }
    return format_rows(rows, view);
}

std::string status_json(const lock::StatusReport& report) {
    std::string names;
    for (const auto& s : report.names) {
        if (!names.empty())
            names += ',';
        names += name_json(s, report.server_now_ms);
    }
    return fmt::format("{{\"server_time_ms\":{},\"names\":[{}]}}", report.server_now_ms, names);
}

std::string permits_table(const lock::SemaphorePermits& s) {
    std::string out =
        fmt::format("name     {}\nlimit    {}\nused     {}\nwaiters  {}\n", s.name,
                    s.limit > 0 ? std::to_string(s.limit) : "none", s.permits.size(), s.waiters);
    if (s.permits.empty())
        return out;
    std::vector<Row> rows{{"PERMIT", "HOST", "PID", "USER", "SINCE", "TTL", "TOKEN", "COMMAND"}};
    for (const auto& p : s.permits)
        rows.push_back({p.permit, p.info.host, std::to_string(p.info.pid), p.info.user,
                        since(p.info, View{s.server_now_ms, true}), ttl(p.ttl_left),
                        std::to_string(p.info.fence), p.info.command});
    return out + format_table(rows);
}

std::string permits_json(const lock::SemaphorePermits& s) {
    std::string holders;
    for (const auto& p : s.permits) {
        const auto& i = p.info;
        holders += fmt::format("{}{{\"permit\":{},\"host\":{},\"pid\":{},\"user\":{},"
                               "\"command\":{},\"since_ms\":{},\"ttl_ms\":{},\"fence\":{}}}",
                               holders.empty() ? "" : ",", json_string(p.permit),
                               json_string(i.host), i.pid, json_string(i.user),
                               json_string(i.command), i.since_ms, p.ttl_left.count(), i.fence);
    }
    return fmt::format("{{\"name\":{},\"limit\":{},\"used\":{},\"waiters\":{},\"holders\":[{}]}}",
                       json_string(s.name), s.limit, s.permits.size(), s.waiters, holders);
}

namespace {

std::string majority_json(const lock::MajorityHolder& m) {
    std::string holder = "null";
    if (m.held) {
        const auto& i = m.holder->info;
        holder = fmt::format("{{\"host\":{},\"pid\":{},\"user\":{},\"command\":{},"
                             "\"since_ms\":{},\"fence\":{}}}",
                             json_string(i.host), i.pid, json_string(i.user),
                             json_string(i.command), i.since_ms, i.fence);
    }
    return fmt::format("{{\"name\":{},\"held\":{},\"members\":{},\"holder\":{}}}",
                       json_string(m.name), m.held, m.members, holder);
}

std::string majority_line(const lock::MajorityHolder& m, size_t total) {
    if (m.held)
        return fmt::format("{}: held by {} on {} of {} members\n", one_line(m.name),
                           lock::describe_holder(m.holder->info, m.now_ms), m.members, total);
    if (m.members > 0)
        return fmt::format("{}: not held (held by one holder on only {} of {} members)\n",
                           one_line(m.name), m.members, total);
    return fmt::format("{}: not held\n", one_line(m.name));
}

std::string quorum_json(const lock::StatusReading& reading) {
    std::string members, majority;
    for (size_t i = 0; i < reading.members.size(); ++i) {
        const auto& member = reading.members[i];
        members +=
            fmt::format("{}{{\"member\":{},{}}}", i ? "," : "", json_string(member.address),
                        member.report ? "\"status\":" + status_json(*member.report)
                                      : "\"error\":" + json_string(member.report.error().message));
    }
    for (const auto& m : reading.majority) {
        if (!majority.empty())
            majority += ',';
        majority += majority_json(m);
    }
    return fmt::format("{{\"members\":[{}],\"quorum\":{},\"majority\":[{}]}}\n", members,
                       reading.quorum, majority);
}

std::string quorum_text(const lock::StatusReading& reading, const std::string& prefix,
                        StatusStyle style) {
    const size_t total = reading.members.size();
    std::string text;
    for (const auto& member : reading.members) {
        text += member.name + ":\n";
        if (!member.report)
            text += "  unreachable: " + member.report.error().message + "\n";
        else if (member.report->names.empty())
            text += "  nothing under prefix " + prefix + "\n";
        else
            text += status_table(*member.report, style);
    }
    text += fmt::format("majority ({} of {} members):\n", reading.quorum, total);
    if (reading.majority.empty())
        text += "  nothing under prefix " + prefix + "\n";
    for (const auto& m : reading.majority)
        text += "  " + majority_line(m, total);
    return text;
}

} // namespace

std::string status_text(const app::StatusAnswer& answer, const std::string& prefix,
                        StatusStyle style) {
    std::string text;
    if (style == StatusStyle::names) {
        for (const auto& name : answer.names)
            text += name + "\n";
        return text;
    }
    const bool json = style == StatusStyle::json;
    const lock::StatusReading& reading = answer.reading;
    if (reading.quorum > 0)
        return json ? quorum_json(reading) : quorum_text(reading, prefix, style);
    const lock::StatusReport& report = *reading.members.front().report;
    if (json)
        return status_json(report) + "\n";
    if (report.names.empty())
        return "nothing under prefix " + prefix + "\n";
    return status_table(report, style);
}

} // namespace dlock::cli
