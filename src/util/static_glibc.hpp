#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock {

// What a statically linked glibc can and cannot do. It has the "files" and "dns" NSS sources
// built in, but loads any other source (mdns4_minimal, resolve, myhostname, systemd, sss, ldap)
// as a shared object built for a libc that is not the one inside the binary: that crashes or
// misbehaves. It cannot load libssl either. See process/dynamic_handover.hpp for what dlock
// does about it.

// True in the static build: the program has no dynamic loader (no PT_INTERP header).
bool is_static_build();

// The sources nsswitch.conf(5) `text` lists for `database`, in order, without the [action]
// items; nullopt when the file has no line for it.
std::optional<std::vector<std::string>> nss_sources(std::string_view text,
                                                    std::string_view database);

// The first source of the "hosts" database that a static glibc cannot run, given nsswitch.conf
// `text` ("" for none: glibc's default is dns, then files), or "" if every one is built in.
std::string unsafe_host_source(std::string_view text);

// unsafe_host_source() of this machine's /etc/nsswitch.conf, read once.
const std::string& unsafe_host_source();

// True for an IPv4 or IPv6 address literal (no name lookup needed).
bool is_ip_literal(const std::string& host);

} // namespace dlock
