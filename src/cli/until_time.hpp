#pragma once

#include "util/duration.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string_view>

namespace dlock::cli {

// How long from `now_ms` (ms since the epoch) until the local time `text`: "14:00", "14:00:30"
// (the next such time: today, or tomorrow when it has passed), "2026-12-01 14:00[:30]" or
// "2026-12-01T14:00[:30]". A usage error naming `option` when the text is none of these, or a
// time that is not in the future.
Result<Millis> until_local_time(std::string_view option, std::string_view text, int64_t now_ms);

} // namespace dlock::cli
