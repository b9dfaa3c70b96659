#include "cli/once_per_options.hpp"

#include "util/duration.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

Result<Millis> duration_of(std::string_view option, std::string_view text) {
    auto d = parse_duration(text);
    if (!d)
        d.error().message = fmt::format("{}: {}", option, d.error().message);
    return d;
}

// --offset: a duration, negative with a leading '-', less than the period either way.
Result<Millis> parse_offset(std::string_view text, Millis period) {
    const bool negative = text.starts_with("-");
    TRY_ASSIGN(const Millis size, duration_of("--offset", negative ? text.substr(1) : text));
    if (size >= period)
        return usage_error(fmt::format("--offset {}: must be less than the period ({}) either way",
                                       text, format_duration(period)));
    return negative ? -size : size;
}

Result<Millis> parse_tolerance(std::optional<std::string_view> text, Millis period) {
    if (!text)
        return std::min(period / 10, kMaxDefaultTolerance);
    TRY_ASSIGN(const Millis tolerance, duration_of("--tolerance", *text));
    if (tolerance * 2 > period)
        return usage_error(
            fmt::format("--tolerance {}: must be at most half the period ({}), or a run "
                        "could count toward a slot it is nearer the end of",
                        *text, format_duration(period)));
    return tolerance;
}

// The options that only mean something with --once-per, or nullptr.
const char* stray_option(const RunArgs& args) {
    for (const char* option : {"--offset", "--tolerance", "--once-per-strict"})
        if (args.has(option))
            return option;
    return nullptr;
}

} // namespace

Result<void> parse_once_per(const RunArgs& args, app::RunOptions& o) {
    const auto period = args.value("--once-per");
    if (!period) {
        if (const char* stray = stray_option(args))
            return usage_error(fmt::format("{} applies to --once-per only", stray));
        return {};
    }
    if (args.kind == RunKind::semaphore)
        return usage_error("--once-per is for dlock run, not sem run");
    if (args.kind == RunKind::acquire)
        return usage_error("--once-per is for dlock run, not acquire");
    if (o.names.size() != 1)
        return usage_error("--once-per takes one lock name: each name would have its own slots");
    if (o.shared)
        return usage_error("--once-per applies to exclusive locks only, not with --shared");
    lock::SlotRule rule;
    TRY_ASSIGN(rule.period, duration_of("--once-per", *period));
    if (rule.period < kMinPeriod || rule.period > kMaxPeriod)
        return usage_error(fmt::format("--once-per {}: must be from {} to 366d", *period,
                                       format_duration(kMinPeriod)));
    if (const auto offset = args.value("--offset")) {
        TRY_ASSIGN(rule.offset, parse_offset(*offset, rule.period));
    }
    TRY_ASSIGN(rule.tolerance, parse_tolerance(args.value("--tolerance"), rule.period));
    rule.strict = args.has("--once-per-strict");
    o.once_per = rule;
    // A skip is a success by default (a Kubernetes Job must not retry it); -E sets every skip.
    o.slot_done_exit_code = args.has("--conflict-exit-code") ? o.conflict_exit_code : exit_code::ok;
    return {};
}

} // namespace dlock::cli
