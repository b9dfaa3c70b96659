#pragma once

#include "redis/scripts/embedded_scripts.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace dlock::redis {

// The embedded script called `name`, for tests that go through the lua/ files by name. dlock
// itself has no such lookup: it names a script by its handle (scripts::NAME), so that a
// misspelled name does not compile. Throws (failing the test) when there is none.
inline const EmbeddedScript& script(std::string_view name) {
    for (const auto& s : embedded_scripts())
        if (s.name == name)
            return s;
    throw std::out_of_range("no embedded script named " + std::string(name));
}

} // namespace dlock::redis
