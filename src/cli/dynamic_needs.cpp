#include "cli/dynamic_needs.hpp"

#include "util/static_glibc.hpp"
#include "util/user_name.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace dlock::app {
namespace {

bool needs_name_lookup(const redis::Endpoint& endpoint) {
    return !endpoint.host.empty() && !is_ip_literal(endpoint.host);
}

std::optional<std::string> endpoint_need(const redis::Endpoint& endpoint,
                                         std::string_view unsafe_host_source) {
    if (endpoint.tls)
        return "TLS (rediss://) needs libssl";
    if (!unsafe_host_source.empty() && needs_name_lookup(endpoint))
        return fmt::format("looking up host name {} needs the NSS source '{}' "
                           "(/etc/nsswitch.conf)",
                           endpoint.host, unsafe_host_source);
    return std::nullopt;
}

std::optional<std::string> deployment_need(const redis::Deployment& deployment,
                                           std::string_view unsafe_host_source) {
    // The sentinels' master comes with its own TLS setting.
    if (deployment.kind == redis::Deployment::Kind::sentinel && deployment.master.tls)
        return "TLS (rediss-sentinel://) needs libssl";
    for (const auto& node : deployment.nodes)
        if (auto need = endpoint_need(node, unsafe_host_source))
            return need;
    return std::nullopt;
}

} // namespace

std::optional<std::string> dynamic_build_need(const std::vector<redis::Deployment>& members,
                                              std::string_view unsafe_host_source,
                                              bool user_known) {
    for (const auto& member : members)
        if (auto need = deployment_need(member, unsafe_host_source))
            return need;
    if (!user_known)
        return fmt::format("the name of user id {} is not in /etc/passwd, and looking it up "
                           "needs NSS",
                           geteuid());
    return std::nullopt;
}

std::optional<std::string> dynamic_build_need(const std::vector<redis::Deployment>& members) {
    bool names = false;
    for (const auto& member : members)
        for (const auto& node : member.nodes)
            names = names || needs_name_lookup(node);
    return dynamic_build_need(members, names ? unsafe_host_source() : "",
                              user_name_from_files().has_value());
}

} // namespace dlock::app
