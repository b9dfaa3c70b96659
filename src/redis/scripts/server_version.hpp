#pragma once

#include "redis/protocol/connection.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace dlock::redis {

// The oldest Redis dlock's scripts run on: streams (XADD) hold the history, and the scripts read
// TIME before they write, which needs script effects replication (the default since 5.0).
inline constexpr int kOldestServerMajor = 5;

// "4.0.14" from the text of `INFO server`; nullopt when it names no version.
std::optional<std::string> version_in_info(std::string_view info);

// An error reply to a script that an older server gives for what the scripts need (an unknown
// command, TIME before a write, more arguments than an old command takes): asks the server its
// version (one round trip, on this error path only). Below kOldestServerMajor, the error becomes
// one line naming the server, its version and what dlock needs (unavailable: exit 69); otherwise,
// or when the version cannot be read, `error` stands.
Error explain_old_server(Connection& conn, Error error);

} // namespace dlock::redis
