#include "lock/compat.hpp"

#include <fmt/format.h>

namespace dlock::lock {
namespace {

// A longer key is surely a mistake: no library here builds one.
constexpr size_t kMaxCompatName = 512;

} // namespace

std::string_view compat_name(CompatFormat format) {
    switch (format) {
    case CompatFormat::setnx:
        return "setnx";
    case CompatFormat::redisson:
        return "redisson";
    }
    return "?";
}

std::optional<CompatFormat> compat_of(std::string_view text) {
    for (auto format : {CompatFormat::setnx, CompatFormat::redisson})
        if (text == compat_name(format))
            return format;
    return std::nullopt;
}

std::string_view compat_key_type(CompatFormat format) {
    return format == CompatFormat::redisson ? "hash" : "string";
}

Result<std::string> validate_compat_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxCompatName)
        return usage_error(fmt::format("a --compat name is the other side's Redis key: 1-{} "
                                       "bytes (got {})",
                                       kMaxCompatName, name.size()));
    for (size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c < 0x20 || c == 0x7f)
            return usage_error(fmt::format("a --compat name must not contain control characters "
                                           "(byte 0x{:02x} at offset {})",
                                           c, i));
    }
    return std::string(name);
}

std::string compat_owner(CompatFormat format, std::string_view owner_token) {
    if (format == CompatFormat::setnx)
        return std::string(owner_token);
    // 32 hex digits as a UUID (8-4-4-4-12), then the "thread" 1: one holder per dlock run.
    std::string uuid(owner_token);
    if (uuid.size() == 32)
        uuid = fmt::format("{}-{}-{}-{}-{}", uuid.substr(0, 8), uuid.substr(8, 4),
                           uuid.substr(12, 4), uuid.substr(16, 4), uuid.substr(20));
    return uuid + ":1";
}

namespace {

// Redisson's prefixName (RedissonObject.java): a name with a hash tag of its own keeps it, so
// the channel and the latch stay in the lock's Cluster slot; any other is wrapped in braces.
std::string prefix_name(std::string_view prefix, std::string_view name) {
    if (name.find('{') != std::string_view::npos)
        return fmt::format("{}:{}", prefix, name);
    return fmt::format("{}:{{{}}}", prefix, name);
}

} // namespace

std::string redisson_channel(std::string_view name) {
    return prefix_name("redisson_lock__channel", name);
}

std::string redisson_unlock_latch(std::string_view name, std::string_view request) {
    return prefix_name("redisson_unlock_latch", name) + ":" + std::string(request);
}

} // namespace dlock::lock
