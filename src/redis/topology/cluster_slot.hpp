#pragma once

#include <cstdint>
#include <string_view>

namespace dlock::redis {

inline constexpr uint16_t kClusterSlots = 16384;

// The Redis Cluster slot of `key`: CRC16 (XMODEM) of its hash tag (the part between the first
// '{' and the next '}', when not empty) or of the whole key, modulo 16384.
uint16_t key_slot(std::string_view key);

} // namespace dlock::redis
