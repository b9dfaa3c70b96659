#pragma once

#include "redis/protocol/reply.hpp"
#include "redis/topology/cluster_slot.hpp"
#include "redis/transport/endpoint.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace dlock::redis {

// Slots first..last (inclusive) are served by the master at host:port (an empty host: the
// server that replied).
struct SlotRange {
    int first = 0;
    int last = 0;
    std::string host;
    int port = 0;
};

// The slot ranges of every master in a CLUSTER SHARDS reply (Redis 7+; the TLS port when `tls`)
// or a CLUSTER SLOTS reply (before), from the server `from`. Checked, since a broken or hostile
// server may send anything: every slot in 0..16383 and each range in order, ports in 1..65535,
// no more masters than slots (kClusterSlots: each owns one at least), nor slots than a Cluster
// has. An absurd topology is one
// `unavailable` error naming the server; an entry without slots or an address is skipped, as
// Redis lists masters that own no slot.
Result<std::vector<SlotRange>> parse_cluster_shards(ReplyView shards, bool tls,
                                                    const Endpoint& from);
Result<std::vector<SlotRange>> parse_cluster_slots(ReplyView slots, const Endpoint& from);

} // namespace dlock::redis
