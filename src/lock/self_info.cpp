#include "lock/self_info.hpp"

#include "util/user_name.hpp"

#include <unistd.h>

namespace dlock::app {

namespace {

// Shared holds and permits keep holder fields tab-separated in Redis: no tab may be in one.
std::string without_tabs(std::string text) {
    for (char& c : text)
        if (c == '\t')
            c = ' ';
    return text;
}

} // namespace

lock::HolderInfo self_info(std::string command) {
    lock::HolderInfo self;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    self.host = without_tabs(host);
    self.pid = getpid();
    self.user = without_tabs(current_user_name()); // informational only
    self.command = without_tabs(std::move(command));
    return self;
}

} // namespace dlock::app
