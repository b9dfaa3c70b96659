#pragma once

#include <span>
#include <string_view>

namespace dlock::redis {

// A lua/*.lua file compiled into the binary (see cmake/GenerateLuaSource.cmake).
struct EmbeddedScript {
    std::string_view name; // file name without .lua
    std::string_view sha1; // of the body, as Redis computes it for EVALSHA
    std::string_view body;
};

std::span<const EmbeddedScript> embedded_scripts();

// The script called `name`; a missing name is a programming error (checked by tests).
const EmbeddedScript& script(std::string_view name);

} // namespace dlock::redis
