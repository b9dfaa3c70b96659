#pragma once

#include "redis/transport/endpoint.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock::redis {

// What a MOVED or ASK error reply says about where to send the command instead (Redis Cluster):
//   MOVED <slot> <host>:<port>   the slot lives there now (remember it)
//   ASK <slot> <host>:<port>     this key is being migrated there: ask once, with ASKING first
// An empty host ("MOVED 3300 :7001") means the host of the server that replied.
struct Redirect {
    bool ask = false; // ASK, not MOVED
    uint16_t slot = 0;
    std::string host;
    int port = 0;
};
// Decoded with the rest of the error reply, by classify (server_error.hpp).
std::optional<Redirect> parse_redirect(std::string_view message);

} // namespace dlock::redis
