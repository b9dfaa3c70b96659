#include "lock/keys.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <unordered_set>

namespace dlock::lock {
namespace {

bool allowed(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '.':
    case '_':
    case ':':
    case '/':
    case '@':
    case '+':
    case '=':
    case '-':
        return true;
    default:
        return false;
    }
}

Result<std::string> validate(std::string_view what, std::string_view value, size_t max_len) {
    if (value.empty())
        return usage_error(fmt::format("invalid {}: must not be empty", what));
    if (value.size() > max_len)
        return usage_error(fmt::format("invalid {} {}: longer than {} bytes", what,
                                       quote(std::string(value.substr(0, 20)) + "..."), max_len));
    for (char c : value)
        if (!allowed(c))
            return usage_error(
                fmt::format("invalid {} {}: only letters, digits and . _ : / @ + = - are allowed",
                            what, quote(value)));
    return std::string(value);
}

// "<prefix>:{<name>}:", to which each key appends its part.
std::string key_base(std::string_view prefix, std::string_view name) {
    return fmt::format("{}:{{{}}}:", prefix, name);
}

// The parts whose key exists only while its name is in use (see name_in_use).
constexpr std::array<std::string_view, 7> kLiveParts{"lock", "readers", "queue", "latch",
                                                     "sem",  "permits", "paused"};

} // namespace

Result<std::string> validate_name(std::string_view name) {
    return validate("lock name", name, 200);
}

std::vector<std::string> distinct(const std::vector<std::string>& names) {
    std::vector<std::string> out;
    std::unordered_set<std::string_view> seen;
    for (const auto& name : names)
        if (seen.insert(name).second)
            out.push_back(name);
    return out;
}

Result<std::string> validate_prefix(std::string_view prefix) {
    return validate("prefix", prefix, 64);
}

Keys Keys::of(std::string_view prefix, std::string_view name) {
    const std::string base = key_base(prefix, name);
    return Keys{base + "lock",    base + "fence",   base + "queue",     base + "alive",
                base + "wake:",   base + "readers", base + "rinfo",     base + "xqueue",
                base + "history", base + "sem",     base + "permits",   base + "squeue",
                base + "salive",  base + "swake:",  base + "released:", base + "winfo",
                base + "slot",    base + "runs",    base + "paused"};
}

LatchKeys LatchKeys::of(std::string_view prefix, std::string_view name) {
    const std::string base = key_base(prefix, name);
    return {base + "latch", base + "latch-ids", base + "latch-waiters", base + "latch-wake:"};
}

std::string names_pattern(std::string_view prefix) {
    return key_base(prefix, "*") + "*";
}

std::optional<std::string_view> name_in_use(std::string_view prefix, std::string_view key) {
    return name_of(prefix, key, NameScope::in_use);
}

std::optional<std::string_view> name_of(std::string_view prefix, std::string_view key,
                                        NameScope scope) {
    if (!key.starts_with(prefix) || !key.substr(prefix.size()).starts_with(":{"))
        return std::nullopt;
    const size_t from = prefix.size() + 2;
    const size_t close = key.find("}:", from); // names have no braces: the first one ends it
    if (close == std::string_view::npos)
        return std::nullopt;
    const auto name = key.substr(from, close - from);
    const auto part = key.substr(close + 2);
    const bool live = std::find(kLiveParts.begin(), kLiveParts.end(), part) != kLiveParts.end();
    const bool counted = scope == NameScope::known && part == "runs";
    if (!(live || counted) || !validate_name(name))
        return std::nullopt;
    return name;
}

} // namespace dlock::lock
