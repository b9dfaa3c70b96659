#include "redis/embedded_scripts.hpp"

#include <cstdlib>
#include <spdlog/spdlog.h>

namespace dlock::redis {

const EmbeddedScript& script(std::string_view name) {
    for (const auto& s : embedded_scripts())
        if (s.name == name)
            return s;
    spdlog::critical("internal error: no embedded script named {}", name);
    std::abort();
}

} // namespace dlock::redis
