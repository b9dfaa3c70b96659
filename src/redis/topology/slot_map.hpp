#pragma once

#include "redis/topology/cluster_slot.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace dlock::redis {

// A Redis Cluster's slot -> master map, as far as it is known: each slot's owner is a node
// index (of a NodePool), learned from MOVED replies and CLUSTER SHARDS/SLOTS.
class SlotMap {
  public:
    SlotMap();

    // The node serving `slot`, if known.
    std::optional<size_t> owner(uint16_t slot) const;
    // Slots first..last (inclusive; checked by the caller) live at `node` from now on.
    void assign(uint16_t first, uint16_t last, size_t node);
    // `node` failed: the slots it served are unknown again (their master may have failed over:
    // the other nodes will redirect us).
    void forget(size_t node);
    // Every node serving a slot, each once, in slot order.
    std::vector<size_t> owners() const;

  private:
    // 32 bits: a hostile topology may name more nodes than an int16 holds (the CLUSTER
    // SHARDS/SLOTS parsers refuse more than a Cluster can have).
    using NodeIndex = int32_t;
    static constexpr NodeIndex kUnknown = -1;
    std::unique_ptr<std::array<NodeIndex, kClusterSlots>> slots_; // boxed: too large for the stack
};

} // namespace dlock::redis
