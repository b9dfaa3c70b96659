#include "redis/topology/cluster_shards.hpp"

#include <fmt/format.h>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

namespace dlock::redis {
namespace {

constexpr size_t kMaxHostLength = 255; // a DNS name; an address is shorter

Error absurd(const Endpoint& from, std::string_view what) {
    return Error{
        Fault::unavailable,
        fmt::format("Redis at {} sent an invalid Cluster topology ({})", from.display(), what)};
}

// One element of a CLUSTER SHARDS map (a flat array of name, value), by name.
std::optional<ReplyView> field(ReplyView map, std::string_view name) {
    for (size_t i = 0; i + 1 < map.size(); i += 2)
        if (map[i].str() == name)
            return map[i + 1];
    return std::nullopt;
}

Result<SlotRange> slot_range(ReplyView first, ReplyView last, ReplyView host, ReplyView port,
                             const Endpoint& from) {
    const auto a = first.to_int(), b = last.to_int(), p = port.to_int();
    if (!a || !b || *a < 0 || *a > *b || *b >= kClusterSlots)
        return tl::unexpected(
            absurd(from, fmt::format("slot range {}-{}", a ? std::to_string(*a) : "?",
                                     b ? std::to_string(*b) : "?")));
    if (!p || *p <= 0 || *p > 65535)
        return tl::unexpected(
            absurd(from, fmt::format("port {}", p ? std::to_string(*p) : "not a number")));
    if (host.str().size() > kMaxHostLength)
        return tl::unexpected(
            absurd(from, fmt::format("a host name of {} bytes", host.str().size())));
    return SlotRange{static_cast<int>(*a), static_cast<int>(*b), std::string(host.str()),
                     static_cast<int>(*p)};
}

// What no Cluster can be, checked over the whole reply: more masters or slots than it has
// (overlapping ranges, repeated masters).
Result<std::vector<SlotRange>> checked(std::vector<SlotRange> ranges, const Endpoint& from) {
    std::set<std::pair<std::string_view, int>> masters;
    int64_t slots = 0;
    for (const auto& range : ranges) {
        masters.emplace(range.host, range.port);
        slots += range.last - range.first + 1;
    }
    if (masters.size() > static_cast<size_t>(kClusterSlots))
        return tl::unexpected(absurd(from, fmt::format("{} masters; a Cluster has at most {}",
                                                       masters.size(), kClusterSlots)));
    if (slots > kClusterSlots)
        return tl::unexpected(
            absurd(from, fmt::format("{} slots; a Cluster has {}", slots, kClusterSlots)));
    return ranges;
}

// A master of a CLUSTER SHARDS shard: its ranges, or none when it is no master or has no
// address.
Result<void> add_master(std::vector<SlotRange>& out, ReplyView node, ReplyView slots, bool tls,
                        const Endpoint& from) {
    const auto role = field(node, "role");
    if (!role || role->str() != "master")
        return {};
    auto host = field(node, "endpoint");
    if (!host || host->str().empty() || host->str() == "?")
        host = field(node, "ip");
    auto port = tls ? field(node, "tls-port") : field(node, "port");
    if (!port)
        port = field(node, "port");
    if (!host || !port)
        return {};
    for (size_t r = 0; r + 1 < slots.size(); r += 2) {
        TRY_ASSIGN(auto range, slot_range(slots[r], slots[r + 1], *host, *port, from));
        out.push_back(std::move(range));
        if (out.size() > static_cast<size_t>(kClusterSlots)) // each range has a slot at least
            return tl::unexpected(
                absurd(from, fmt::format("more than {} slot ranges", kClusterSlots)));
    }
    return {};
}

} // namespace

Result<std::vector<SlotRange>> parse_cluster_shards(ReplyView shards, bool tls,
                                                    const Endpoint& from) {
    std::vector<SlotRange> ranges;
    for (size_t s = 0; s < shards.size(); ++s) {
        const auto slots = field(shards[s], "slots");
        const auto members = field(shards[s], "nodes");
        if (!slots || !members)
            continue;
        for (size_t n = 0; n < members->size(); ++n)
            TRY(add_master(ranges, (*members)[n], *slots, tls, from));
    }
    return checked(std::move(ranges), from);
}

Result<std::vector<SlotRange>> parse_cluster_slots(ReplyView slots, const Endpoint& from) {
    std::vector<SlotRange> ranges;
    for (size_t i = 0; i < slots.size(); ++i) {
        const auto range = slots[i];
        if (range.size() < 3 || range[2].size() < 2)
            continue;
        TRY_ASSIGN(auto parsed, slot_range(range[0], range[1], range[2][0], range[2][1], from));
        ranges.push_back(std::move(parsed));
        if (ranges.size() > static_cast<size_t>(kClusterSlots))
            return tl::unexpected(
                absurd(from, fmt::format("more than {} slot ranges", kClusterSlots)));
    }
    return checked(std::move(ranges), from);
}

} // namespace dlock::redis
