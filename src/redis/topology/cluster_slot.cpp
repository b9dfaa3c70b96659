#include "redis/topology/cluster_slot.hpp"

#include <array>

namespace dlock::redis {
namespace {

// CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, as the Cluster specification uses.
constexpr std::array<uint16_t, 256> make_table() {
    std::array<uint16_t, 256> table{};
    for (unsigned i = 0; i < 256; ++i) {
        unsigned crc = i << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
        table[i] = static_cast<uint16_t>(crc);
    }
    return table;
}

constexpr auto kTable = make_table();

uint16_t crc16(std::string_view data) {
    uint16_t crc = 0;
    for (unsigned char c : data)
        crc = static_cast<uint16_t>((crc << 8) ^ kTable[((crc >> 8) ^ c) & 0xff]);
    return crc;
}

} // namespace

uint16_t key_slot(std::string_view key) {
    if (const auto open = key.find('{'); open != std::string_view::npos) {
        const auto close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return crc16(key) % kClusterSlots;
}

} // namespace dlock::redis
