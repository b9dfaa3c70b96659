#include "redis/transport/endpoint.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock::redis {

std::string Endpoint::display() const {
    if (!unix_path.empty())
        return unix_path;
    if (host.find(':') != std::string::npos)
        return fmt::format("[{}]:{}", host, port);
    return fmt::format("{}:{}", host, port);
}

std::string peer_name(const ConnectOptions& options) {
    const std::string where = options.endpoint.display();
    return options.peer == Peer::sentinel ? fmt::format("sentinel {}", where)
                                          : fmt::format("Redis at {}", where);
}

std::string redact_url(std::string_view url) {
    return redact_credentials(url);
}

} // namespace dlock::redis
