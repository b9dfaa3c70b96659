#include "redis/topology/slot_map.hpp"

#include <algorithm>

namespace dlock::redis {

SlotMap::SlotMap() : slots_(std::make_unique<std::array<NodeIndex, kClusterSlots>>()) {
    slots_->fill(kUnknown);
}

std::optional<size_t> SlotMap::owner(uint16_t slot) const {
    const NodeIndex node = (*slots_)[slot];
    if (node == kUnknown)
        return std::nullopt;
    return static_cast<size_t>(node);
}

void SlotMap::assign(uint16_t first, uint16_t last, size_t node) {
    // At most 16384 masters (checked by the parsers), so an index fits a NodeIndex.
    std::fill(slots_->begin() + first, slots_->begin() + last + 1, static_cast<NodeIndex>(node));
}

void SlotMap::forget(size_t node) {
    for (auto& slot : *slots_)
        if (slot == static_cast<NodeIndex>(node))
            slot = kUnknown;
}

std::vector<size_t> SlotMap::owners() const {
    std::vector<size_t> out;
    std::vector<bool> seen;
    for (const NodeIndex node : *slots_) {
        if (node == kUnknown)
            continue;
        const auto index = static_cast<size_t>(node);
        if (index >= seen.size())
            seen.resize(index + 1);
        if (!seen[index]) {
            seen[index] = true;
            out.push_back(index);
        }
    }
    return out;
}

} // namespace dlock::redis
