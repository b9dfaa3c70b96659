#include "lock/ownership.hpp"

#include <cstdlib>

namespace dlock::lock {
namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// Calls f(word) for each space-separated word; stops when f returns true.
template <typename F>
bool any_word(std::string_view text, F f) {
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string_view::npos)
            end = text.size();
        if (end > start && f(text.substr(start, end - start)))
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace

bool is_owner_token(std::string_view token) {
    return token.size() == 32 && token.find_first_not_of("0123456789abcdef") == std::string::npos;
}

InheritedHolds InheritedHolds::from_environment() {
    return {env("DLOCK_HELD"), env("DLOCK_NAME"), env("DLOCK_OWNER"), env("DLOCK_PERMIT")};
}

std::optional<std::string> InheritedHolds::owner_of(std::string_view wanted) const {
    std::optional<std::string> found;
    any_word(held, [&](std::string_view entry) {
        auto colon = entry.find(':');
        if (colon == std::string_view::npos || entry.substr(colon + 1) != wanted ||
            !is_owner_token(entry.substr(0, colon)))
            return false;
        found = std::string(entry.substr(0, colon));
        return true;
    });
    if (!found && permit.empty() && is_owner_token(owner) &&
        any_word(name, [&](std::string_view n) { return n == wanted; }))
        found = owner;
    return found;
}

std::string InheritedHolds::with(std::string_view name, std::string_view token) const {
    std::string entry = std::string(token) + ":" + std::string(name);
    if (any_word(held, [&](std::string_view e) { return e == entry; }))
        return held;
    return held.empty() ? entry : held + " " + entry;
}

} // namespace dlock::lock
