#include "lock/keys.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

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

} // namespace

Result<std::string> validate_name(std::string_view name) {
    return validate("lock name", name, 200);
}

Result<std::string> validate_prefix(std::string_view prefix) {
    return validate("prefix", prefix, 64);
}

Keys Keys::of(std::string_view prefix, std::string_view name) {
    std::string base = fmt::format("{}:{{{}}}:", prefix, name);
    return Keys{base + "lock",    base + "fence",   base + "queue",   base + "alive",
                base + "wake:",   base + "readers", base + "rinfo",   base + "xqueue",
                base + "history", base + "sem",     base + "permits", base + "squeue",
                base + "salive",  base + "swake:"};
}

} // namespace dlock::lock
