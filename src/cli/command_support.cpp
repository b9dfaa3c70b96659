#include "cli/command_support.hpp"

#include "lock/keys.hpp"
#include "redis/store_factory.hpp"

namespace dlock::cli {

Result<app::Target> target_for(const GlobalOptions& globals,
                               const std::vector<std::string>& names) {
    for (const auto& name : names)
        TRY(lock::validate_name(name));
    return globals.resolve();
}

std::unique_ptr<lock::Store> store_for(const app::Target& target) {
    return redis::store_for(target.quorum, target.redis);
}

} // namespace dlock::cli
