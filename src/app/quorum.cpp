#include "app/quorum.hpp"

namespace dlock::app {

std::string member_name(const Target& target, size_t member) {
    return fmt::format("member {} ({})", member + 1, target.quorum[member].display());
}

} // namespace dlock::app
