#pragma once

#include "config/settings.hpp"

namespace dlock::app {

// `dlock config`: prints every setting, its effective value and where it came from, in the
// config file format (so the output can seed a config file); secrets are never shown.
int show_config(const config::Settings& settings);

} // namespace dlock::app
