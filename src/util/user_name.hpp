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

// $LOGNAME, or the name in /etc/passwd: what is known without NSS; nullopt when only NSS
// could tell.
std::optional<std::string> user_name_from_files();

// The name of `uid` in passwd(5)-formatted `text`, or "" if it is not there.
std::string user_in_passwd(std::string_view text, uid_t uid);

} // namespace dlock
