#include "util/user_name.hpp"

#include "util/small_file.hpp"
#include "util/static_glibc.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

namespace dlock {
namespace {

// /etc/passwd, or "" if it cannot be read. Local passwd files are a few KiB.
std::string read_passwd() {
    std::string text;
    const int fd = open_regular_file("/etc/passwd");
    if (fd < 0)
        return text;
    char buffer[16384];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 && text.size() < (1u << 20))
        text.append(buffer, static_cast<size_t>(n));
    close(fd);
    return text;
}

} // namespace

bool passwd_from_files_only(std::string_view nsswitch) {
    const auto sources = nss_sources(nsswitch, "passwd");
    return sources && !sources->empty() &&
           std::all_of(sources->begin(), sources->end(),
                       [](const std::string& source) { return source == "files"; });
}

std::string user_in_passwd(std::string_view text, uid_t uid) {
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        // name:password:uid:...
        const size_t name_end = line.find(':');
        const size_t uid_start = line.find(':', name_end == line.npos ? line.npos : name_end + 1);
        if (name_end == 0 || uid_start == line.npos)
            continue;
        const size_t uid_end = line.find(':', uid_start + 1);
        const std::string_view field = line.substr(uid_start + 1, uid_end - uid_start - 1);
        uid_t value = 0;
        auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (ec == std::errc() && ptr == field.data() + field.size() && !field.empty() &&
            value == uid)
            return std::string(line.substr(0, name_end));
    }
    return "";
}

std::optional<std::string> user_name_from_files() {
    if (const char* logname = std::getenv("LOGNAME"); logname && *logname)
        return logname;
    // Read once: the static build's hand-over check and the holder record both ask, and the
    // effective uid does not change.
    static const std::string in_passwd = user_in_passwd(read_passwd(), geteuid());
    if (!in_passwd.empty())
        return in_passwd;
    // Not in /etc/passwd, and nothing else to ask (a container's arbitrary uid, typically): the
    // uid is all NSS would say too, so the static build need not hand over to find out.
    static const bool files_only = [] {
        const SmallFile file = read_small_file("/etc/nsswitch.conf", 1 << 20);
        return file.error == 0 && passwd_from_files_only(file.text);
    }();
    if (files_only)
        return std::to_string(geteuid());
    return std::nullopt;
}

std::string current_user_name() {
    if (auto name = user_name_from_files())
        return *name;
    const uid_t uid = geteuid();
    // The static build hands over to the dynamic one before it gets here (cli/dynamic_needs.cpp):
    // its getpwuid would load NSS modules it cannot run.
    if (!is_static_build())
        if (const passwd* pw = getpwuid(uid))
            return pw->pw_name;
    return std::to_string(uid);
}

} // namespace dlock
