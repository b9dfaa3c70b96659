#include "redis/transport/endpoint.hpp"

#include "redis/topology/deployment.hpp"
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

Result<Endpoint> parse_url(std::string_view url) {
    TRY_ASSIGN(Deployment d, parse_deployment(url));
    if (d.kind != Deployment::Kind::direct || d.nodes.size() != 1)
        return usage_error(
            fmt::format("invalid Redis URL {}: expected one server", quote(redact_url(url))));
    return std::move(d.nodes.front());
}

} // namespace dlock::redis
