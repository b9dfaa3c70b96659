#include "util/static_glibc.hpp"

#include "util/small_file.hpp"

#include <arpa/inet.h>
#include <elf.h>
#include <link.h>
#include <netinet/in.h>
#include <sys/auxv.h>

namespace dlock {

bool is_static_build() {
    // The kernel's description of our program headers. Checking them, rather than whether a
    // loader mapped us (AT_BASE), also answers right when the dynamic build is started by
    // running ld.so with it as an argument.
    const auto* headers = reinterpret_cast<const ElfW(Phdr)*>(getauxval(AT_PHDR));
    const auto count = getauxval(AT_PHNUM);
    for (unsigned long i = 0; headers != nullptr && i < count; ++i)
        if (headers[i].p_type == PT_INTERP)
            return false;
    return headers != nullptr;
}

std::optional<std::vector<std::string>> nss_sources(std::string_view text,
                                                    std::string_view database) {
    std::optional<std::vector<std::string>> found;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        line = line.substr(0, line.find('#'));
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::string_view name = line.substr(0, colon);
        while (!name.empty() && (name.front() == ' ' || name.front() == '\t'))
            name.remove_prefix(1);
        while (!name.empty() && (name.back() == ' ' || name.back() == '\t'))
            name.remove_suffix(1);
        if (name != database)
            continue;
        // Later lines for the same database replace earlier ones, as in glibc.
        found.emplace();
        std::string_view rest = line.substr(colon + 1);
        bool in_action = false;
        size_t start = std::string_view::npos;
        for (size_t i = 0; i <= rest.size(); ++i) {
            const char c = i < rest.size() ? rest[i] : ' ';
            const bool blank = c == ' ' || c == '\t' || c == '\r';
            if (in_action) {
                in_action = c != ']';
            } else if (c == '[') {
                in_action = true;
            } else if (!blank && start == std::string_view::npos) {
                start = i;
            }
            if ((blank || c == '[') && start != std::string_view::npos) {
                found->emplace_back(rest.substr(start, i - start));
                start = std::string_view::npos;
            }
        }
    }
    return found;
}

std::string unsafe_host_source(std::string_view text) {
    for (const auto& source : nss_sources(text, "hosts").value_or(std::vector<std::string>{}))
        if (source != "files" && source != "dns")
            return source;
    return "";
}

const std::string& unsafe_host_source() {
    static const std::string source = [] {
        const SmallFile file = read_small_file("/etc/nsswitch.conf", 1 << 20);
        return unsafe_host_source(file.error == 0 ? std::string_view(file.text) : "");
    }();
    return source;
}

bool is_ip_literal(const std::string& host) {
    in6_addr address;
    return inet_pton(AF_INET, host.c_str(), &address) == 1 ||
           inet_pton(AF_INET6, host.c_str(), &address) == 1;
}

} // namespace dlock
