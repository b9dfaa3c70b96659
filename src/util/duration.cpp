#include "util/duration.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock {
namespace {

constexpr int64_t kMaxMillis = int64_t{100} * 365 * 86'400'000; // ~100 years

std::optional<int64_t> unit_millis(std::string_view unit) {
    if (unit == "ms")
        return 1;
    if (unit.empty() || unit == "s")
        return 1000;
    if (unit == "m")
        return 60'000;
    if (unit == "h")
        return 3'600'000;
    if (unit == "d")
        return 86'400'000;
    return std::nullopt;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// round(0.<fraction> * scale), half up, in integers. Only the first 18 digits count: what
// follows them is worth less than 1e-9 ms at any scale.
int64_t fraction_millis(std::string_view fraction, int64_t scale) {
    int64_t high = 0, low = 0; // digits 1-9 and 10-18, as integers of 9 digits each
    for (size_t i = 0; i < 18; ++i) {
        const int64_t digit = i < fraction.size() ? fraction[i] - '0' : 0;
        (i < 9 ? high : low) = (i < 9 ? high : low) * 10 + digit;
    }
    constexpr int64_t kBillion = 1'000'000'000;
    // fraction * scale in units of 1e-9 ms; each product stays below 1e9 * 8.64e7 < 2^63.
    const int64_t nanos = high * scale + low * scale / kBillion;
    return nanos / kBillion + (nanos % kBillion >= kBillion / 2 ? 1 : 0);
}

} // namespace

Result<Millis> parse_duration(std::string_view text) {
    if (text.starts_with('-'))
        return usage_error(fmt::format("invalid duration {}: must not be negative", quote(text)));
    auto invalid = [&] {
        return usage_error(fmt::format(
            "invalid duration {}: expected a number with an optional unit ms, s, m, h or d "
            "(e.g. 500ms, 30s, 1.5m)",
            quote(text)));
    };
    // Digits, at most one '.', digits, then the unit. No exponent, sign, NaN or infinity.
    size_t i = 0;
    while (i < text.size() && is_digit(text[i]))
        ++i;
    std::string_view whole = text.substr(0, i), fraction;
    if (i < text.size() && text[i] == '.') {
        const size_t start = ++i;
        while (i < text.size() && is_digit(text[i]))
            ++i;
        fraction = text.substr(start, i - start);
    }
    if (whole.empty() && fraction.empty())
        return invalid();
    const auto scale = unit_millis(text.substr(i));
    if (!scale)
        return invalid();

    while (whole.size() > 1 && whole.front() == '0')
        whole.remove_prefix(1);
    auto too_long = [&] {
        return usage_error(
            fmt::format("invalid duration {}: too long (at most 100 years)", quote(text)));
    };
    if (whole.size() > 15) // far beyond kMaxMillis in any unit, and beyond int64_t
        return too_long();
    int64_t units = 0;
    for (char c : whole)
        units = units * 10 + (c - '0');
    if (units > kMaxMillis / *scale)
        return too_long();
    const int64_t ms = units * *scale + fraction_millis(fraction, *scale);
    if (ms > kMaxMillis)
        return too_long();
    return Millis(ms);
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
