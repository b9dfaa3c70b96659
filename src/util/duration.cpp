#include "util/duration.hpp"

#include "util/text.hpp"

#include <cmath>
#include <fmt/format.h>

namespace dlock {
namespace {

std::optional<double> unit_millis(std::string_view unit) {
    if (unit == "ms")
        return 1.0;
    if (unit.empty() || unit == "s")
        return 1000.0;
    if (unit == "m")
        return 60'000.0;
    if (unit == "h")
        return 3'600'000.0;
    if (unit == "d")
        return 86'400'000.0;
    return std::nullopt;
}

} // namespace

Result<Millis> parse_duration(std::string_view text) {
    auto invalid = [&] {
        return usage_error(fmt::format(
            "invalid duration {}: expected a number with an optional unit ms, s, m, h or d "
            "(e.g. 500ms, 30s, 1.5m)",
            quote(text)));
    };
    size_t digits_end = 0;
    bool seen_dot = false, seen_digit = false;
    for (; digits_end < text.size(); ++digits_end) {
        char c = text[digits_end];
        if (c >= '0' && c <= '9')
            seen_digit = true;
        else if (c == '.' && !seen_dot)
            seen_dot = true;
        else
            break;
    }
    if (!seen_digit)
        return invalid();
    auto scale = unit_millis(text.substr(digits_end));
    if (!scale)
        return invalid();
    double value = std::stod(std::string(text.substr(0, digits_end))) * *scale;
    constexpr double max_ms = 100.0 * 365 * 86'400'000.0;
    if (!std::isfinite(value) || value > max_ms)
        return usage_error(fmt::format("invalid duration {}: too long", quote(text)));
    // Rounded to the nearest ms by hand: `value` is finite and >= 0, and std::llround would be
    // the binary's only use of libm, a whole shared library to load at every start.
    return Millis(static_cast<int64_t>(value + 0.5));
}

Result<std::optional<Millis>> parse_wait_duration(std::string_view text) {
    if (text == "forever" || text == "inf" || text == "infinity")
        return std::optional<Millis>{};
    return parse_duration(text).map([](Millis d) { return std::optional<Millis>(d); });
}

std::string format_duration(Millis d) {
    int64_t ms = d.count();
    if (ms < 1000)
        return fmt::format("{}ms", ms);
    if (ms < 60'000)
        return ms % 1000 == 0 ? fmt::format("{}s", ms / 1000)
                              : fmt::format("{:.3g}s", static_cast<double>(ms) / 1000.0);
    int64_t s = ms / 1000;
    if (s < 3600)
        return s % 60 == 0 ? fmt::format("{}m", s / 60) : fmt::format("{}m{}s", s / 60, s % 60);
    if (s % 3600 == 0)
        return fmt::format("{}h", s / 3600);
    return fmt::format("{}h{}m", s / 3600, (s % 3600) / 60);
}

int64_t wall_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace dlock
