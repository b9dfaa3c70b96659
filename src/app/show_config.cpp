#include "app/show_config.hpp"

#include "redis/transport/endpoint.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"

#include <fmt/format.h>

namespace dlock::app {
namespace {

std::string shown_value(const config::Option& key, const config::Setting& setting) {
    if (key.secret)
        return "(hidden)";
    if (key.urls)
        return redis::redact_url(setting.value);
    return setting.value;
}

} // namespace

int show_config(const config::Settings& settings) {
    std::string out = "# dlock settings; precedence: command line > DLOCK_* environment > "
                      "user config > system config > default\n";
    for (const auto& source : settings.sources)
        out += fmt::format("# config file {}{}\n", source.path,
                           !source.skipped.empty() ? " (skipped: " + source.skipped + ")"
                           : source.found          ? ""
                                                   : " (absent)");
    for (const auto& key : settings.options()) {
        const auto& setting = settings.get(key.name);
        if (!setting.is_set())
            out += fmt::format("# {} is not set\n", key.name);
        else
            out += fmt::format("{:<15} = {:<30} # {}\n", key.name, shown_value(key, setting),
                               setting.origin);
    }
    out::write(out);
    return exit_code::ok;
}

} // namespace dlock::app
