#pragma once

#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace dlock::lock {

// Another library's lock format that `--compat FORMAT` takes a lease in, so that dlock and a
// service using that library exclude each other on one name (docs/reference.md, "Sharing a lock
// with a Java, Go, Node or Python service"). Under it, NAME is the other side's Redis key.
enum class CompatFormat {
    setnx,    // one string key, a unique value, SET NX PX, compare-and-delete (redis-py, redlock)
    redisson, // Redisson's RLock: a hash of `<uuid>:<thread>` -> reentrant count
};

// The spelling on the command line and in the history.
std::string_view compat_name(CompatFormat format);
// The format spelled `text`, nullopt when none is.
std::optional<CompatFormat> compat_of(std::string_view text);

// A NAME under --compat: the other side's key as it is (colons, braces, dots...), 1-512 bytes,
// no control characters (a usage error, 64, naming the offending byte).
Result<std::string> validate_compat_name(std::string_view name);

// The owner value dlock stores for a lease of `format`, made from its 128-bit hex owner token:
// setnx the token itself; redisson a field shaped as Redisson's `<client uuid>:<thread id>`.
std::string compat_owner(CompatFormat format, std::string_view owner_token);

// Redisson's unlock channel of the lock `name` (pubsub/LockPubSub.java).
std::string redisson_channel(std::string_view name);
// Redisson's unlock latch of the lock `name` for one release request.
std::string redisson_unlock_latch(std::string_view name, std::string_view request);

} // namespace dlock::lock
