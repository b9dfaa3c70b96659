#pragma once

#include "lock/backend.hpp"

#include <string>

namespace dlock::app {

// This process as others see it (refusals, `dlock status`, the history): host name, pid, user
// and `command` (the command line to show).
lock::HolderInfo self_info(std::string command);

} // namespace dlock::app
