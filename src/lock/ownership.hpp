#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dlock::lock {

// Re-entry across processes. A command run under `dlock run A` inherits
//   DLOCK_NAME=A  DLOCK_OWNER=<token>  DLOCK_HELD="<token>:A"
// and DLOCK_HELD accumulates every enclosing lock ("<token>:<name>" entries, space-separated),
// so `dlock run A` anywhere below re-enters A with A's token, while a first `dlock run B` gets a
// fresh token of its own: two sibling processes taking B inside A still exclude each other.
struct InheritedHolds {
    std::string held;  // $DLOCK_HELD
    std::string name;  // $DLOCK_NAME (space-separated names)
    std::string owner; // $DLOCK_OWNER
    // $DLOCK_PERMIT: set inside `dlock sem run`, whose DLOCK_NAME and DLOCK_OWNER then describe
    // a semaphore permit, which must not make a `dlock run` of the same name re-enter a lock.
    std::string permit = {};

    static InheritedHolds from_environment();

    // The token to re-enter `name` with, if an enclosing dlock holds it.
    std::optional<std::string> owner_of(std::string_view name) const;
    // DLOCK_HELD for the command, now that `owner` holds `name`.
    std::string with(std::string_view name, std::string_view owner) const;
};

bool is_owner_token(std::string_view token);

} // namespace dlock::lock
