#pragma once

#include "app/run.hpp"
#include "cli/run_options.hpp"
#include "util/error.hpp"

namespace dlock::cli {

// The limits of --once-per.
inline constexpr Millis kMinPeriod{1000};
inline constexpr Millis kMaxPeriod{366LL * 24 * 3600 * 1000}; // "366d" in its message
inline constexpr Millis kMaxDefaultTolerance{5 * 60 * 1000};

// --once-per, --offset, --tolerance, --once-per-strict into `o.once_per` (and the skip's exit
// status, from -E when given). Every failure is a usage error naming the option: a period under
// 1s, |offset| >= period, tolerance >= period/2, the others without --once-per, several names,
// or a shared lock.
Result<void> parse_once_per(const RunArgs& args, app::RunOptions& o);

} // namespace dlock::cli
