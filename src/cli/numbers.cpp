#include "cli/numbers.hpp"

#include "util/text.hpp"

#include <charconv>
#include <fmt/format.h>

namespace dlock::cli {

Result<int64_t> parse_integer(std::string_view text, int64_t min, int64_t max,
                              std::string_view option) {
    int64_t value = 0;
    const char* end = text.data() + text.size();
    const bool digits = !text.empty() && text.front() >= '0' && text.front() <= '9';
    auto [stop, ec] = std::from_chars(text.data(), end, value); // errc on overflow, no throw
    if (!digits || ec != std::errc() || stop != end || value < min || value > max)
        return usage_error(
            fmt::format("{} {}: must be a number from {} to {}", option, quote(text), min, max));
    return value;
}

Result<int> parse_exit_status(std::string_view text, std::string_view option) {
    return parse_integer(text, 0, 255, option).map([](int64_t v) { return static_cast<int>(v); });
}

} // namespace dlock::cli
