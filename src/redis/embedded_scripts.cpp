#include "redis/embedded_scripts.hpp"

#include "util/log.hpp"

#include <cstdlib>

namespace dlock::redis {

const EmbeddedScript& script(std::string_view name) {
    for (const auto& s : embedded_scripts())
        if (s.name == name)
            return s;
    log::error("internal error: no embedded script named {}", name);
    std::abort();
}

} // namespace dlock::redis
