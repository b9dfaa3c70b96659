#include "app/check.hpp"

#include "lock/describe.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>

namespace dlock::app {
namespace {

using lock::Outcome;
using lock::RunRecord;

constexpr int64_t kSecondMs = 1000;
constexpr int64_t kHourMs = 3600 * kSecondMs;
constexpr int64_t kDayMs = 24 * kHourMs;
// Runs end on the server's clock, and a Redlock member's clock may be somewhat ahead of the
// one that answered the time: a record dated up to this far in the future is taken as just
// now, one dated later is not believed.
constexpr int64_t kFutureSlackMs = kHourMs;
constexpr size_t kMaxHostBytes = 64;
constexpr size_t kMaxErrorBytes = 300;

// Rank for the worst-wins rule (max_state_alt): OK < UNKNOWN < WARNING < CRITICAL.
int severity(CheckState state) {
    constexpr std::array<int, 4> kRank{0, 2, 3, 1}; // in CheckState's order
    return kRank[static_cast<size_t>(state)];
}

// A span for people in dlock's duration syntax: "250ms", "12m4s", "3h12m", and from a day on
// "1d2h" (parse_duration reads each back). Never negative.
std::string span(int64_t ms) {
    ms = std::max<int64_t>(ms, 0);
    if (ms < kDayMs)
        return format_duration(Millis(ms));
    const int64_t hours = ms % kDayMs / kHourMs;
    return hours == 0 ? fmt::format("{}d", ms / kDayMs) : fmt::format("{}d{}h", ms / kDayMs, hours);
}

// `now_ms - then_ms`, saturated: a record from Redis may hold any number.
int64_t elapsed(int64_t now_ms, int64_t then_ms) {
    int64_t out = 0;
    if (__builtin_sub_overflow(now_ms, then_ms, &out))
        return then_ms < 0 ? std::numeric_limits<int64_t>::max() : 0;
    return out;
}

// An age, to the second ("0s" below one).
std::string age(int64_t ms) {
    return ms < kSecondMs ? "0s" : span(ms / kSecondMs * kSecondMs);
}

// Text from Redis, safe inside the line: one line, no '|' (which starts the performance data).
std::string safe(std::string_view text, size_t max_bytes) {
    std::string out = lock::cut(one_line(text), max_bytes);
    std::replace(out.begin(), out.end(), '|', '/');
    return out;
}

std::string host(std::string_view name) {
    return name.empty() ? "an unknown host" : safe(name, kMaxHostBytes);
}

std::string_view ended(Outcome outcome) {
    switch (outcome) {
    case Outcome::ok:
        return "succeeded";
    case Outcome::failed:
        return "failed";
    case Outcome::timed_out:
        return "timed out";
    case Outcome::lost:
        return "lost its lease";
    case Outcome::unknown:
        return "ended";
    default:
        return "was skipped";
    }
}

// "failed on web-1 23m ago (exit 3, took 2s)", "succeeded 3h12m ago on web-2 (exit 0, ...)",
// "ended 3h ago on web-2 (exit status unknown, ...)": the outcome first, and what a reader looks
// for next.
std::string run_phrase(const RunRecord& r, int64_t now_ms) {
    const std::string when = age(elapsed(now_ms, r.end_ms)) + " ago";
    const std::string where = "on " + host(r.host);
    const bool ran = r.outcome == Outcome::ok || r.outcome == Outcome::unknown;
    const std::string exit =
        r.exit_status < 0 ? "exit status unknown" : fmt::format("exit {}", r.exit_status);
    return fmt::format("{} {} {} ({}, took {})", ended(r.outcome), ran ? when : where,
                       ran ? where : when, exit, span(r.duration_ms));
}

bool in_future(const std::optional<RunRecord>& r, int64_t now_ms) {
    return r && elapsed(r->end_ms, now_ms) > kFutureSlackMs;
}

// A value in seconds for the performance data: "11520", "1.5".
std::string seconds(int64_t ms) {
    ms = std::max<int64_t>(ms, 0);
    if (ms % kSecondMs == 0)
        return std::to_string(ms / kSecondMs);
    std::string out = fmt::format("{}.{:03}", ms / kSecondMs, ms % kSecondMs);
    while (out.back() == '0')
        out.pop_back();
    return out;
}

// 'NAME_what': the plugins' guidelines allow any label but for '=' and the quote. A name's '='
// becomes '~', which no name has, so two names never share a label.
std::string label(std::string_view name, std::string_view what) {
    std::string out = fmt::format("{}_{}", name, what);
    std::replace(out.begin(), out.end(), '=', '~');
    std::replace(out.begin(), out.end(), '\'', '~');
    return "'" + out + "'";
}

std::string perfdata(const CheckInput& in, const CheckLimits& limits) {
    const auto& success = in.runs.last_success;
    const auto& last = in.runs.last_run;
    std::string out = fmt::format(
        "{}={};{};{};0", label(in.name, "age"),
        success ? seconds(elapsed(in.now_ms, success->end_ms) / kSecondMs * kSecondMs) + "s" : "U",
        limits.warn_age ? seconds(limits.warn_age->count()) : "", seconds(limits.max_age.count()));
    out += fmt::format(" {}={};;;0", label(in.name, "duration"),
                       last ? seconds(last->duration_ms) + "s" : "U");
    for (Outcome o : lock::kOutcomes)
        out += fmt::format(" {}={}c;;;0", label(in.name, lock::outcome_name(o)),
                           std::max<int64_t>(in.runs.count(o), 0));
    return out;
}

// The state and words of a name that ran at least once (succeeded, or ended with its status
// unknown): by the age of `success`, the run RunStats::last_ran() found.
CheckVerdict judge_success(const CheckInput& in, const CheckLimits& limits,
                           const RunRecord& success) {
    const auto& last = in.runs.last_run;
    const int64_t success_age = elapsed(in.now_ms, success.end_ms);
    const bool failed_after = last && last->outcome != Outcome::ok &&
                              last->outcome != Outcome::unknown && last->end_ms > success.end_ms;
    CheckVerdict v{CheckState::ok, in.name, ""};
    if (failed_after)
        v.text += fmt::format(" last run {}; last {} {} ago on {}", run_phrase(*last, in.now_ms),
                              success.outcome == Outcome::ok ? "succeeded" : "ended",
                              age(success_age), host(success.host));
    else
        v.text += " last " + run_phrase(success, in.now_ms);
    if (success_age > limits.max_age.count()) {
        v.state = CheckState::critical;
        v.text += ", more than --max-age " + span(limits.max_age.count());
    } else if (limits.warn_age && success_age > limits.warn_age->count()) {
        v.state = CheckState::warning;
        v.text += ", more than --warn-age " + span(limits.warn_age->count());
    } else if (failed_after) {
        v.state = CheckState::warning;
    }
    return v;
}

// A paused name's verdict: CRITICAL held at WARNING, and the line says until when.
void hold_for_pause(CheckVerdict& v, const lock::Pause& pause, int64_t now_ms) {
    if (v.state == CheckState::critical)
        v.state = CheckState::warning;
    v.text += "; " + safe(lock::describe_pause(pause, now_ms), kMaxErrorBytes);
}

// The holder running `name` now: under a quorum the one a majority agrees on; a lock kept by
// --min-hold after its run is not running.
std::optional<lock::HolderInfo> running(const lock::StatusReading& reading, std::string_view name) {
    if (reading.quorum > 0) {
        for (const auto& m : reading.majority)
            if (m.name == name && m.held && m.holder)
                return m.holder->info;
        return std::nullopt;
    }
    for (const lock::NameStatus* s : reading.of(name))
        if (s->lock.state != lock::LockStatus::State::min_hold && !s->lock.holders.empty())
            return s->lock.holders.front().info;
    return std::nullopt;
}

// What `name` is when it is no lock but a semaphore or a latch (lock::NameStatus).
const char* uncounted_kind(const lock::StatusReading& reading, std::string_view name) {
    const auto found = reading.of(name);
    return found.empty() ? nullptr : found.front()->uncounted_kind();
}

CheckVerdict judge_reading(const lock::StatusReading& reading, const std::string& name,
                           const CheckLimits& limits) {
    const auto now = reading.server_now_ms();
    if (!now)
        return unreadable(name, now.error().message);
    auto runs = lock::runs_of(reading, name);
    if (!runs)
        return unreadable(name, reading.quorum > 0 ? "fewer than a majority of members answered"
                                                   : "the server's reply does not have it");
    if (const char* kind = uncounted_kind(reading, name); kind && runs->empty())
        return {CheckState::unknown,
                fmt::format("{} is {}: dlock counts the runs of locks only (dlock run, "
                            "dlock acquire)",
                            name, kind),
                ""};
    return judge({name, std::move(*runs), running(reading, name), *now, reading.pause_of(name)},
                 limits);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

std::string_view check_state_name(CheckState state) {
    constexpr std::array<std::string_view, 4> kNames{"OK", "WARNING", "CRITICAL", "UNKNOWN"};
    return kNames[static_cast<size_t>(state)];
}

int check_exit_status(CheckState state) {
    constexpr std::array<int, 4> kStatus{exit_code::check_ok, exit_code::check_warning,
                                         exit_code::check_critical, exit_code::check_unknown};
    return kStatus[static_cast<size_t>(state)];
}

CheckVerdict judge(const CheckInput& in, const CheckLimits& limits) {
    for (const auto* r : {&in.runs.last_success, &in.runs.last_run})
        if (in_future(*r, in.now_ms))
            return {CheckState::unknown,
                    fmt::format("{} has a run record dated {} after the server's time: not "
                                "believed",
                                in.name, span(elapsed((*r)->end_ms, in.now_ms))),
                    perfdata(in, limits)};
    CheckVerdict v;
    if (const auto& ran = in.runs.last_ran()) {
        v = judge_success(in, limits, *ran);
    } else {
        v = {CheckState::critical, in.name + " never succeeded", ""};
        if (in.runs.last_run)
            v.text += "; last run " + run_phrase(*in.runs.last_run, in.now_ms);
    }
    if (in.running)
        v.text += fmt::format("; running now on {} since {}", host(in.running->host),
                              age(elapsed(in.now_ms, in.running->since_ms)));
    if (in.paused) // a planned window: its age is news, not an emergency
        hold_for_pause(v, *in.paused, in.now_ms);
    v.perfdata = perfdata(in, limits);
    return v;
}

CheckVerdict unreadable(std::string_view name, std::string_view error) {
    return {CheckState::unknown,
            fmt::format("cannot read {}: {}", name, safe(error, kMaxErrorBytes)), ""};
}

CheckLine check_line(std::vector<CheckVerdict> verdicts) {
    if (verdicts.empty())
        return {CheckState::unknown, "UNKNOWN - nothing to check"};
    std::stable_sort(verdicts.begin(), verdicts.end(), [](const auto& a, const auto& b) {
        return severity(a.state) > severity(b.state);
    });
    const CheckState state = verdicts.front().state;
    std::string text, perf;
    for (const auto& v : verdicts) {
        text += text.empty() ? "" : "; ";
        text += v.text;
        if (verdicts.size() > 1)
            text += fmt::format(" [{}]", check_state_name(v.state));
        if (!v.perfdata.empty())
            perf += (perf.empty() ? "" : " ") + v.perfdata;
    }
    return {state, fmt::format("{} - {}{}", check_state_name(state), text,
                               perf.empty() ? "" : " | " + perf)};
}

int check(lock::Store& store, const Target& target, const CheckOptions& options) {
    std::vector<CheckVerdict> verdicts;
    const auto reading = store.status(target.prefix, options.names);
    if (!reading)
        verdicts.push_back(unreadable(joined(options.names), reading.error().message));
    else
        for (const auto& name : options.names)
            verdicts.push_back(judge_reading(*reading, name, options.limits));
    const CheckLine line = check_line(std::move(verdicts));
    out::print("{}\n", line.line);
    return check_exit_status(line.state);
}

} // namespace dlock::app
