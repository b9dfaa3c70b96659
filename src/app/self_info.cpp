#include "app/self_info.hpp"

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace dlock::app {

lock::HolderInfo self_info(std::string command) {
    lock::HolderInfo self;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    self.host = host;
    self.pid = getpid();
    // Informational only: cron and login shells set LOGNAME, which spares an NSS lookup.
    if (const char* name = std::getenv("LOGNAME"); name && *name)
        self.user = name;
    else if (const passwd* pw = getpwuid(geteuid()))
        self.user = pw->pw_name;
    else
        self.user = std::to_string(geteuid());
    self.command = std::move(command);
    return self;
}

} // namespace dlock::app
