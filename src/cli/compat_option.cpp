#include "cli/compat_option.hpp"

#include "lock/keys.hpp"

#include <fmt/format.h>

namespace dlock::cli {

Result<lock::CompatFormat> parse_compat(std::string_view text) {
    if (auto format = lock::compat_of(text))
        return *format;
    return usage_error(fmt::format("--compat {}: unknown format (redisson or setnx)", text));
}

Result<void> set_compat(std::string_view text, app::RunOptions& options) {
    TRY_ASSIGN(options.compat, parse_compat(text));
    return {};
}

Result<app::Target> compat_target_for(const GlobalOptions& globals, lock::CompatFormat format,
                                      const std::string& name) {
    TRY(lock::validate_compat_name(name));
    TRY_ASSIGN(auto target, globals.resolve());
    if (!target.quorum.empty())
        return usage_error(fmt::format("--compat {}: not with several --redis (the format has "
                                       "no Redlock quorum form)",
                                       lock::compat_name(format)));
    return target;
}

Result<std::vector<std::string>> compat_names(const std::vector<std::string>& names) {
    for (const auto& name : names)
        TRY(lock::validate_compat_name(name));
    return lock::distinct(names);
}

Result<void> check_compat(RunKind kind, const app::RunOptions& options) {
    if (!options.compat)
        return {};
    const auto format = lock::compat_name(*options.compat);
    if (kind == RunKind::semaphore)
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
