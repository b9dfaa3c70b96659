#include "lock/describe.hpp"

#include <ctime>
#include <fmt/format.h>

namespace dlock::lock {

std::string describe_holder(const HolderInfo& h, int64_t now_ms) {
    time_t since = static_cast<time_t>(h.since_ms / 1000);
    tm local{};
    localtime_r(&since, &local);
    char when[32];
    const bool recent = now_ms - h.since_ms < 86'400'000;
    strftime(when, sizeof when, recent ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &local);
    return fmt::format("{} (pid {}, since {}, token {})", h.host.empty() ? "?" : h.host, h.pid,
                       when, h.fence);
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
