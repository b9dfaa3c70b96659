#include "lock/describe.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fmt/format.h>

namespace dlock::lock {

namespace {

// "web-2 (pid 4242, since 02:00:01<more>)".
std::string describe(const HolderInfo& h, int64_t now_ms, const std::string& more) {
    return fmt::format("{} (pid {}, since {}{})", h.host.empty() ? "?" : h.host, h.pid,
                       local_time(h.since_ms, now_ms), more);
}

} // namespace

std::string describe_holder(const HolderInfo& h, int64_t now_ms) {
    return describe(h, now_ms, fmt::format(", token {}", h.fence));
}

std::string describe_blocker(const HolderInfo& h, int64_t now_ms) {
    return describe(h, now_ms, "");
}

namespace {

std::string local(int64_t ms, const char* format) {
    time_t seconds = static_cast<time_t>(ms / 1000);
    tm fields{};
    localtime_r(&seconds, &fields);
    char when[32];
    strftime(when, sizeof when, format, &fields);
    return when;
}

} // namespace

std::string local_time(int64_t ms, int64_t now_ms) {
    return std::abs(now_ms - ms) < 86'400'000 ? local(ms, "%H:%M:%S") : local_datetime(ms);
}

std::string describe_force(const ForcedRelease& forced, int64_t now_ms) {
    const std::string who = forced.user.empty() ? forced.host : forced.user + "@" + forced.host;
    return fmt::format("released by --force by {} (pid {}) at {}", who, forced.pid,
                       local_time(forced.at_ms, now_ms));
}

std::string local_datetime(int64_t ms) {
    return local(ms, "%Y-%m-%d %H:%M:%S");
}

std::string describe_pause(const Pause& p, int64_t now_ms) {
    const std::string by = one_line(p.host.empty() ? p.by : p.by + "@" + p.host);
    const std::string until =
        p.until_ms > 0 ? "until " + local_time(p.until_ms, now_ms) : std::string("with no end");
    const std::string why = p.reason.empty() ? std::string() : " (" + one_line(p.reason) + ")";
    return fmt::format("paused by {} {}{}", by.empty() ? "?" : by, until, why);
}

std::string format_age(Millis age) {
    const int64_t s = std::max<int64_t>(0, age.count() / 1000);
    if (s < 60)
        return fmt::format("{}s", s);
    if (s < 3600)
        return fmt::format("{}m{:02}s", s / 60, s % 60);
    if (s < 86'400)
        return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
    return fmt::format("{}d{:02}h", s / 86'400, (s % 86'400) / 3600);
}

std::string describe_permits(const AcquireOutcome& r, int64_t now_ms) {
    if (r.permits_held < r.permit_limit)
        return fmt::format("at {} of {} permits, but {} waiter{} queued first", r.permits_held,
                           r.permit_limit, r.waiters, r.waiters == 1 ? " is" : "s are");
    std::string out = fmt::format("at its limit of {} permit{}, held by", r.permit_limit,
                                  r.permit_limit == 1 ? "" : "s");
    for (size_t i = 0; i < r.permit_holders.size(); ++i)
        out += (i == 0 ? " " : ", ") + describe_blocker(r.permit_holders[i], now_ms);
    if (const auto more = r.permits_held - static_cast<int64_t>(r.permit_holders.size()); more > 0)
        out += fmt::format(" and {} more", more);
    return out;
}

std::string command_line(const std::vector<std::string>& argv, size_t max_bytes) {
    std::string out;
    for (const auto& arg : argv) {
        if (!out.empty())
            out.push_back(' ');
        out += arg;
    }
    return cut(std::move(out), max_bytes);
}

std::string cut(std::string text, size_t max_bytes) {
    if (text.size() <= max_bytes)
        return text;
    text.resize(max_bytes > 3 ? max_bytes - 3 : 0);
    // Do not leave half a UTF-8 sequence before the ellipsis.
    while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
        text.pop_back();
    if (!text.empty() && (static_cast<unsigned char>(text.back()) & 0x80))
        text.pop_back();
    return text + "...";
}

} // namespace dlock::lock
