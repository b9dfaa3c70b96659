#pragma once

#include <string>

namespace dlock {

// Hex string of `bytes` random bytes from the kernel CSPRNG (getrandom).
std::string random_hex(size_t bytes);

} // namespace dlock
