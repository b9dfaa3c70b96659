#pragma once

#include "redis/transport/endpoint.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dlock::redis {

// What an error reply says about where to send the command instead (Redis Cluster):
//   MOVED <slot> <host>:<port>   the slot lives there now (remember it)
//   ASK <slot> <host>:<port>     this key is being migrated there: ask once, with ASKING first
// An empty host ("MOVED 3300 :7001") means the host of the server that replied.
struct Redirect {
    bool ask = false; // ASK, not MOVED
    uint16_t slot = 0;
    std::string host;
    int port = 0;
};
std::optional<Redirect> parse_redirect(std::string_view message);

// TRYAGAIN (a multi-key command during a slot migration) and CLUSTERDOWN (a failover in
// progress): the same command succeeds after a short pause.
bool cluster_busy(std::string_view message);

// READONLY (we are talking to a replica), MASTERDOWN (a replica that lost its master) and
// UNBLOCKED (a blocked BLPOP, when its server turned replica): the server is not the master any
// more, e.g. after a Sentinel failover.
bool not_master(std::string_view message);

// UNBLOCKED: a blocked command (BLPOP) ended because the server changed role under it (a
// failover demoted it): sent again, it reaches the new master through a redirect or Sentinel.
bool unblocked(std::string_view message);

} // namespace dlock::redis
