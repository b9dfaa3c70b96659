#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <string_view>

namespace dlock::cli {

// The value of an integer option: decimal digits only (no sign, exponent, hex or spaces), from
// `min` to `max`. Anything else, however long, is a usage error "OPTION 'TEXT': must be a number
// from MIN to MAX", never an exception. CLI11's own conversions are not used for numbers: they
// take hex and octal, and its flag values go through std::stoll, which throws.
Result<int64_t> parse_integer(std::string_view text, int64_t min, int64_t max,
                              std::string_view option);

// An exit status given as an option (-E): 0 to 255.
Result<int> parse_exit_status(std::string_view text, std::string_view option);

} // namespace dlock::cli
