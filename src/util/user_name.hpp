#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace dlock {

// The name of the user running dlock, for holder records (informational only).
// $LOGNAME first (cron and login shells set it), then /etc/passwd read directly, then NSS
// (getpwuid), then the numeric uid. Reading the file ourselves spares the NSS set-up (nscd
// probes, nsswitch.conf) on the start-up path; NSS still answers for LDAP/sssd users.
std::string current_user_name();

// $LOGNAME, or the name in /etc/passwd, or the numeric uid when nsswitch.conf looks users up
// in that file only: what is known without NSS modules; nullopt when only one could tell.
std::optional<std::string> user_name_from_files();

// Whether nsswitch.conf(5) `nsswitch` looks the passwd database up in /etc/passwd only (no
// systemd, sss, ldap...: modules a static glibc cannot load). False without a passwd line.
bool passwd_from_files_only(std::string_view nsswitch);

// The name of `uid` in passwd(5)-formatted `text`, or "" if it is not there.
std::string user_in_passwd(std::string_view text, uid_t uid);

} // namespace dlock
