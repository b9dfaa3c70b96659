#include "config/keys.hpp"

#include "lock/keys.hpp"
#include "redis/endpoint.hpp"
#include "util/duration.hpp"
#include "util/text.hpp"

#include <array>
#include <fmt/format.h>

namespace dlock::config {
namespace {

Result<void> check_url(std::string_view value) {
    TRY(redis::parse_url(value));
    return {};
}

Result<void> check_prefix(std::string_view value) {
    TRY(lock::validate_prefix(value));
    return {};
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

constexpr std::array kKeys{
    KeySpec{"redis", "--redis", "DLOCK_REDIS_URL", "REDIS_URL", "redis://127.0.0.1:6379", false,
            check_url},
    KeySpec{"password", "", "DLOCK_REDIS_PASSWORD", "", "", true, check_anything},
    KeySpec{"password-file", "--password-file", "DLOCK_REDIS_PASSWORD_FILE", "", "", false,
            check_anything},
    KeySpec{"prefix", "--prefix", "DLOCK_PREFIX", "", "dlock", false, check_prefix},
    KeySpec{"connect-timeout", "--connect-timeout", "DLOCK_CONNECT_TIMEOUT", "", "2s", false,
            check_timeout},
    KeySpec{"timeout", "--timeout", "DLOCK_TIMEOUT", "", "2s", false, check_timeout},
    KeySpec{"log-level", "-q, -v, -vv", "DLOCK_LOG_LEVEL", "", "warn", false, check_level},
    KeySpec{"log-format", "--log-format", "DLOCK_LOG_FORMAT", "", "text", false, check_format},
    KeySpec{"syslog", "--syslog, --no-syslog", "DLOCK_SYSLOG", "", "false", false, check_bool},
};

} // namespace

std::span<const KeySpec> keys() {
    return kKeys;
}

const KeySpec* find_key(std::string_view name) {
    for (const auto& key : kKeys)
        if (key.name == name)
            return &key;
    return nullptr;
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
