#include "cli/compat_option.hpp"

#include "lock/keys.hpp"

#include <fmt/format.h>

namespace dlock::cli {

CLI::Option* add_compat_option(CLI::App& app, std::string& value) {
    return app
        .add_option("--compat", value,
                    "share the lock with another library: redisson (Redisson's RLock, "
                    "node-redisson) or setnx (redis-py Lock, node-redlock, redsync); NAME is "
                    "then that side's Redis key")
        ->option_text("FORMAT");
}

Result<lock::CompatFormat> parse_compat(std::string_view text) {
    if (auto format = lock::compat_of(text))
        return *format;
    return usage_error(fmt::format("--compat {}: unknown format (redisson or setnx)", text));
}

std::optional<Result<std::vector<std::string>>>
compat_names(const std::optional<std::string>& compat, const std::vector<std::string>& names) {
    if (!compat)
        return std::nullopt;
    for (const auto& name : names)
        if (auto valid = lock::validate_compat_name(name); !valid)
            return Result<std::vector<std::string>>(tl::unexpected(valid.error()));
    return Result<std::vector<std::string>>(lock::distinct(names));
}

Result<void> apply_compat(const std::optional<std::string>& compat, bool semaphore,
                          app::RunOptions& options) {
    if (!compat)
        return {};
    TRY_ASSIGN(options.compat, parse_compat(*compat));
    const auto format = lock::compat_name(*options.compat);
    if (semaphore)
        return usage_error(fmt::format("--compat {}: a semaphore has no such format", format));
    if (options.names.size() != 1)
        return usage_error(fmt::format("--compat {}: one NAME only (the other side's key); "
                                       "got {}",
                                       format, options.names.size()));
    if (options.shared)
        return usage_error(fmt::format("--compat {}: the format has no shared (-s) holds", format));
    // lua/slot.lua checks the holder in dlock's own lock hash, which a --compat lease is not.
    if (options.once_per)
        return usage_error(fmt::format("--compat {}: not with --once-per (its slot is checked "
                                       "against dlock's own lock, not the other format's)",
                                       format));
    return {};
}

Result<void> check_compat_target(const app::RunOptions& options, const app::Target& target) {
    if (options.compat && !target.quorum.empty())
        return usage_error(fmt::format("--compat {}: not with several --redis (the format has "
                                       "no Redlock quorum form)",
                                       lock::compat_name(*options.compat)));
    return {};
}

} // namespace dlock::cli
