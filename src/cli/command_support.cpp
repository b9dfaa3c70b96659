#include "cli/command_support.hpp"

#include "lock/keys.hpp"

namespace dlock::cli {

Result<app::Target> target_for(const GlobalOptions& globals,
                               const std::vector<std::string>& names) {
    for (const auto& name : names)
        TRY(lock::validate_name(name));
    return globals.resolve();
}

} // namespace dlock::cli
