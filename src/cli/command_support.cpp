#include "cli/command_support.hpp"

#include "lock/keys.hpp"
#include "util/log.hpp"

namespace dlock::cli {

int report(const Error& error) {
    log::error("{}", error.message);
    return error.exit_code;
}

Result<app::Target> target_for(const GlobalOptions& globals,
                               const std::vector<std::string>& names) {
    for (const auto& name : names)
        TRY(lock::validate_name(name));
    return globals.resolve();
}

} // namespace dlock::cli
