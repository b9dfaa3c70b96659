#include "util/random.hpp"

#include <cerrno>
#include <stdexcept>
#include <sys/random.h>
#include <vector>

namespace dlock {

std::string random_hex(size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    size_t filled = 0;
    while (filled < bytes) {
        ssize_t n = getrandom(raw.data() + filled, bytes - filled, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw std::runtime_error("getrandom failed");
        }
        filled += static_cast<size_t>(n);
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes * 2);
    for (unsigned char b : raw) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 0xf]);
    }
    return out;
}

} // namespace dlock
