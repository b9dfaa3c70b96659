#pragma once

#include "app/target.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace dlock::app {

// Why the static build cannot serve `target` itself (process/dynamic_handover.hpp), or nullopt:
// a TLS URL (libssl), a host name while the hosts line of nsswitch.conf has a source other than
// files and dns (`unsafe_host_source`, "" when there is none), or a user whose name only NSS
// knows (`user_known` false).
std::optional<std::string> dynamic_build_need(const Target& target,
                                              std::string_view unsafe_host_source, bool user_known);

// The same, for this machine and user.
std::optional<std::string> dynamic_build_need(const Target& target);

} // namespace dlock::app
