#include "config/option.hpp"

#include "util/duration.hpp"
#include "util/text.hpp"

#include <charconv>
#include <fmt/format.h>

namespace dlock::config {

const Option* find(Options options, std::string_view name) {
    for (const auto& option : options)
        if (option.name == name)
            return &option;
    return nullptr;
}

std::optional<std::string> renamed(Options options, std::string_view FormerNames::*field,
                                   std::string_view name) {
    for (const auto& option : options) {
        if (name.empty() || option.former.*field != name)
            continue;
        const std::string_view now = field == &FormerNames::key    ? option.name
                                     : field == &FormerNames::flag ? option.flag
                                                                   : option.env;
        const std::string note =
            option.former.note.empty() ? "" : fmt::format(" ({})", option.former.note);
        return fmt::format("{} was renamed {}{}", name, now, note);
    }
    return std::nullopt;
}

Result<void> check_timeout(std::string_view value) {
    TRY_ASSIGN(const Millis d, parse_duration(value));
    if (d.count() <= 0)
        return usage_error("must be greater than zero");
    return {};
}

Result<void> check_anything(std::string_view) {
    return {};
}

Result<void> check_replicas(std::string_view value) {
    if (value == "auto")
        return {};
    int n = -1;
    const char* end = value.data() + value.size();
    const bool digits = !value.empty() && value.front() >= '0' && value.front() <= '9';
    auto [stop, ec] = std::from_chars(value.data(), end, n);
    if (!digits || ec != std::errc() || stop != end || n > kMaxReplicas)
        return usage_error(
            fmt::format("{}: must be auto or a number from 0 to {}", quote(value), kMaxReplicas));
    return {};
}

Result<void> check_bool(std::string_view value) {
    if (!to_bool(value))
        return usage_error(fmt::format("{}: expected true or false", quote(value)));
    return {};
}

Result<void> check_level(std::string_view value) {
    if (!to_level(value))
        return usage_error(fmt::format("{}: expected error, warn, info or debug", quote(value)));
    return {};
}

Result<void> check_format(std::string_view value) {
    if (!to_format(value))
        return usage_error(fmt::format("{}: expected text or json", quote(value)));
    return {};
}

std::optional<bool> to_bool(std::string_view value) {
    for (auto yes : {"true", "yes", "on", "1"})
        if (value == yes)
            return true;
    for (auto no : {"false", "no", "off", "0"})
        if (value == no)
            return false;
    return std::nullopt;
}

std::optional<log::Level> to_level(std::string_view value) {
    if (value == "error")
        return log::Level::error;
    if (value == "warn")
        return log::Level::warn;
    if (value == "info")
        return log::Level::info;
    if (value == "debug")
        return log::Level::debug;
    return std::nullopt;
}

std::optional<log::Format> to_format(std::string_view value) {
    if (value == "text")
        return log::Format::text;
    if (value == "json")
        return log::Format::json;
    return std::nullopt;
}

} // namespace dlock::config
