#include "redis/redlock/members.hpp"

namespace dlock::redis {

std::string member_name(const std::vector<Deployment>& members, size_t member) {
    return fmt::format("member {} ({})", member + 1, members[member].display());
}

} // namespace dlock::redis
