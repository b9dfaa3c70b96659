#include "util/duration.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock {
namespace {

constexpr int64_t kMaxMillis = int64_t{100} * 365 * 86'400'000; // ~100 years

struct Unit {
    std::string_view name;
    int64_t millis;
};

// Largest first: the order the parts of a compound duration must follow.
constexpr Unit kUnits[] = {
    {"d", 86'400'000}, {"h", 3'600'000}, {"m", 60'000}, {"s", 1000}, {"ms", 1}};
constexpr size_t kNoUnit = std::size(kUnits);

// The index of `name` in kUnits, or kNoUnit.
size_t unit_index(std::string_view name) {
    for (size_t i = 0; i < std::size(kUnits); ++i)
        if (kUnits[i].name == name)
            return i;
    return kNoUnit;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// One part of a duration: "30s", "1.5m", or a lone "7".
struct Part {
    std::string_view number; // whole, point and fraction: "1.5"
    std::string_view whole, fraction, unit;
    bool point = false; // "2." has a point and an empty fraction
};

// Takes the part at the start of `text` off it: digits, at most one '.', digits, then
// everything up to the next digit or '.' as the unit. No exponent, sign, NaN or infinity.
Part next_part(std::string_view& text) {
    Part part;
    size_t i = 0;
    while (i < text.size() && is_digit(text[i]))
        ++i;
    part.whole = text.substr(0, i);
    if (i < text.size() && text[i] == '.') {
        part.point = true;
        const size_t start = ++i;
        while (i < text.size() && is_digit(text[i]))
            ++i;
        part.fraction = text.substr(start, i - start);
    }
    part.number = text.substr(0, i);
    const size_t unit_start = i;
    while (i < text.size() && !is_digit(text[i]) && text[i] != '.')
        ++i;
    part.unit = text.substr(unit_start, i - unit_start);
    text.remove_prefix(i);
    return part;
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

// The milliseconds of one part in `scale` ms units, or nullopt when beyond kMaxMillis.
std::optional<int64_t> part_millis(const Part& part, int64_t scale) {
    std::string_view whole = part.whole;
    while (whole.size() > 1 && whole.front() == '0')
        whole.remove_prefix(1);
    if (whole.size() > 15) // far beyond kMaxMillis in any unit, and beyond int64_t
        return std::nullopt;
    int64_t units = 0;
    for (char c : whole)
        units = units * 10 + (c - '0');
    if (units > kMaxMillis / scale)
        return std::nullopt;
    const int64_t ms = units * scale + fraction_millis(part.fraction, scale);
    if (ms > kMaxMillis)
        return std::nullopt;
    return ms;
}

} // namespace

Result<Millis> parse_duration(std::string_view text) {
    auto invalid = [&](std::string_view why) {
        return usage_error(fmt::format("invalid duration {}: {}", quote(text), why));
    };
    if (text.starts_with('-'))
        return invalid("must not be negative");
    constexpr std::string_view kExpected = "expected a number with an optional unit ms, s, m, h "
                                           "or d (e.g. 500ms, 30s, 1.5m, 1m30s)";
    int64_t total = 0;
    size_t previous = kNoUnit; // the unit of the part before, as an index into kUnits
    std::string_view rest = text;
    do {
        const bool first = previous == kNoUnit;
        const Part part = next_part(rest);
        if ((part.whole.empty() && part.fraction.empty()) || (part.unit.empty() && !rest.empty()))
            return invalid(kExpected);
        if (part.unit.empty() && !first) // "1m30": 30 what?
            return invalid(fmt::format("{} after {} has no unit (only a lone number means seconds)",
                                       part.number, kUnits[previous].name));
        const size_t unit = unit_index(part.unit.empty() ? "s" : part.unit);
        if (unit == kNoUnit)
            return invalid(kExpected);
        if (!first && unit == previous)
            return invalid(fmt::format("{} appears twice", part.unit));
        if (!first && unit < previous)
            return invalid("units must go from largest to smallest (d, h, m, s, ms)");
        if (part.point && !rest.empty())
            return invalid("only the last part may have a fraction (e.g. 1m30.5s)");
        const auto ms = part_millis(part, kUnits[unit].millis);
        if (!ms || *ms > kMaxMillis - total)
            return invalid("too long (at most 100 years)");
        total += *ms;
        previous = unit;
    } while (!rest.empty());
    return Millis(total);
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

std::string format_duration_exact(Millis d) {
    if (d < Millis(0))
        return "-" + format_duration_exact(-d);
    if (d == Millis(0))
        return "0s";
    constexpr std::pair<int64_t, const char*> kUnits[] = {
        {86'400'000, "d"}, {3'600'000, "h"}, {60'000, "m"}, {1000, "s"}, {1, "ms"}};
    std::string out;
    int64_t left = d.count();
    for (const auto& [size, unit] : kUnits) {
        if (left >= size)
            out += fmt::format("{}{}", left / size, unit);
        left %= size;
    }
    return out;
}

} // namespace dlock
