#pragma once

#include "config/settings.hpp"

#include <map>
#include <string>

namespace dlock::test {

// A fake environment for config::Settings::resolve and config_paths.
struct FakeEnv {
    std::map<std::string, std::string> vars;

    config::Getenv getenv() const {
        return [this](const char* name) -> const char* {
            auto it = vars.find(name);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    }
};

} // namespace dlock::test
