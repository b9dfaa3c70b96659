#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The Redis type of a lock of `format`: "hash" (redisson) or "string" (setnx).
std::string_view compat_key_type(CompatFormat format);

// One holder of another library's lock: a Redisson field and its reentrant count, or a setnx
// value (count 1).
struct CompatHolder {
    std::string owner;
    int64_t count = 1;
};

// The other side's key as `status --compat` shows it and `release --force --compat` breaks it.
struct CompatReading {
    std::string type;                  // the key's Redis type: "none" when it is free
    int64_t left_ms = -2;              // its PTTL: -1 no expiry, -2 no key
    std::vector<CompatHolder> holders; // when `type` is the format's
};

// Redisson's unlock channel of the lock `name` (pubsub/LockPubSub.java).
std::string redisson_channel(std::string_view name);
// Redisson's unlock latch of the lock `name` for one release request.
std::string redisson_unlock_latch(std::string_view name, std::string_view request);

} // namespace dlock::lock
