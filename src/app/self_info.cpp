#include "app/self_info.hpp"

#include "util/user_name.hpp"

#include <unistd.h>

namespace dlock::app {

lock::HolderInfo self_info(std::string command) {
    lock::HolderInfo self;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    self.host = host;
    self.pid = getpid();
    self.user = current_user_name(); // informational only
    self.command = std::move(command);
    return self;
}

} // namespace dlock::app
