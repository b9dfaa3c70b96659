#pragma once

#include "redis/topology/deployment.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::app {

// Why the static build cannot serve the deployments `members` (all of --redis) itself
// (process/dynamic_handover.hpp), or nullopt: a TLS URL (libssl), a host name while the hosts
// line of nsswitch.conf has a source other than files and dns (`unsafe_host_source`, "" when
// there is none), or a user whose name only NSS knows (`user_known` false).
std::optional<std::string> dynamic_build_need(const std::vector<redis::Deployment>& members,
                                              std::string_view unsafe_host_source, bool user_known);

// The same, for this machine and user: nsswitch.conf is read only if a host name is to be
// looked up.
std::optional<std::string> dynamic_build_need(const std::vector<redis::Deployment>& members);

} // namespace dlock::app
