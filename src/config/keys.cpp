#include "config/keys.hpp"

#include "lock/keys.hpp"
#include "redis/topology/deployment.hpp"
#include "util/duration.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>

namespace dlock::config {
namespace {

constexpr int kMaxReplicas = 1000;

// One URL, or several separated by spaces: the members of a Redlock quorum.
Result<void> check_urls(std::string_view value) {
    TRY(split_urls(value));
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

constexpr std::array kKeys{
    KeySpec{"redis", "--redis", "DLOCK_REDIS_URL", "REDIS_URL", "redis://127.0.0.1:6379", false,
            check_urls},
    KeySpec{"password", "", "DLOCK_REDIS_PASSWORD", "", "", true, check_anything},
    KeySpec{"password-file", "--password-file", "DLOCK_REDIS_PASSWORD_FILE", "", "", false,
            check_anything},
    KeySpec{"sentinel-user", "--sentinel-user", "DLOCK_SENTINEL_USER", "", "", false,
            check_anything},
    KeySpec{"sentinel-password", "", "DLOCK_SENTINEL_PASSWORD", "", "", true, check_anything},
    KeySpec{"sentinel-password-file", "--sentinel-password-file", "DLOCK_SENTINEL_PASSWORD_FILE",
            "", "", false, check_anything},
    KeySpec{"tls-ca-file", "--tls-ca-file", "DLOCK_TLS_CA_FILE", "", "", false, check_anything},
    KeySpec{"tls-ca-dir", "--tls-ca-dir", "DLOCK_TLS_CA_DIR", "", "", false, check_anything},
    KeySpec{"tls-cert", "--tls-cert", "DLOCK_TLS_CERT", "", "", false, check_anything},
    KeySpec{"tls-key", "--tls-key", "DLOCK_TLS_KEY", "", "", false, check_anything},
    KeySpec{"tls-server-name", "--tls-server-name", "DLOCK_TLS_SERVER_NAME", "", "", false,
            check_anything},
    KeySpec{"tls-insecure", "--tls-insecure", "DLOCK_TLS_INSECURE", "", "false", false, check_bool},
    KeySpec{"min-replicas", "--min-replicas", "DLOCK_MIN_REPLICAS", "", "auto", false,
            check_replicas},
    KeySpec{"replica-timeout", "--replica-timeout", "DLOCK_REPLICA_TIMEOUT", "", "1s", false,
            check_timeout},
    KeySpec{"prefix", "--prefix", "DLOCK_PREFIX", "", "dlock", false, check_prefix},
    KeySpec{"connect-timeout", "--connect-timeout", "DLOCK_CONNECT_TIMEOUT", "", "2s", false,
            check_timeout},
    KeySpec{"timeout", "--timeout", "DLOCK_TIMEOUT", "", "2s", false, check_timeout},
    KeySpec{"log-level", "-q, -v, -vv", "DLOCK_LOG_LEVEL", "", "warn", false, check_level},
    KeySpec{"log-format", "--log-format", "DLOCK_LOG_FORMAT", "", "text", false, check_format},
    KeySpec{"syslog", "--syslog, --no-syslog", "DLOCK_SYSLOG", "", "false", false, check_bool},
};

} // namespace

Result<std::vector<std::string_view>> split_urls(std::string_view value) {
    std::vector<std::string_view> urls;
    for (size_t start = 0; start < value.size();) {
        start = value.find_first_not_of(" \t", start);
        if (start == std::string_view::npos)
            break;
        const size_t end = std::min(value.find_first_of(" \t", start), value.size());
        urls.push_back(value.substr(start, end - start));
        TRY(redis::parse_deployment(urls.back()));
        start = end;
    }
    if (urls.empty())
        return usage_error("no Redis URL");
    return urls;
}

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
