#include "lock/describe.hpp"

#include <ctime>
#include <fmt/format.h>

namespace dlock::lock {

std::string local_time(int64_t ms, int64_t now_ms) {
    time_t since = static_cast<time_t>(ms / 1000);
    tm local{};
    localtime_r(&since, &local);
    char when[32];
    const bool recent = now_ms - ms < 86'400'000;
    strftime(when, sizeof when, recent ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &local);
    return when;
}

std::string describe_holder(const HolderInfo& h, int64_t now_ms) {
    return fmt::format("{} (pid {}, since {}, token {})", h.host.empty() ? "?" : h.host, h.pid,
                       local_time(h.since_ms, now_ms), h.fence);
}

std::string describe_permits(const AcquireOutcome& r, int64_t now_ms) {
    if (r.permits_held < r.permit_limit)
        return fmt::format("at {} of {} permits, but {} waiter{} queued first", r.permits_held,
                           r.permit_limit, r.waiters, r.waiters == 1 ? " is" : "s are");
    std::string out = fmt::format("at its limit of {} permit{}, held by", r.permit_limit,
                                  r.permit_limit == 1 ? "" : "s");
    for (size_t i = 0; i < r.permit_holders.size(); ++i)
        out += (i == 0 ? " " : ", ") + describe_holder(r.permit_holders[i], now_ms);
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
    if (out.size() > max_bytes) {
        out.resize(max_bytes > 3 ? max_bytes - 3 : 0);
        // Do not leave half a UTF-8 sequence before the ellipsis.
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
            out.pop_back();
        if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80))
            out.pop_back();
        out += "...";
    }
    return out;
}

} // namespace dlock::lock
